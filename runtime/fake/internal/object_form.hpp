#pragma once

#include "ctrl/client/object_form.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"

namespace ctrl::fake::internal {

// A copy of a stored object as the client hands it out in form: apiVersion and kind of gvk (the kind the
// caller asked for), and for the metadata form only apiVersion, kind and metadata.
Object InForm(Object stored, client::ObjectForm form, const GroupVersionKind& gvk);
// Every item of list in form; the list becomes a list of item_gvk.
void ListInForm(ObjectList& list, client::ObjectForm form, const GroupVersionKind& item_gvk);

}  // namespace ctrl::fake::internal
