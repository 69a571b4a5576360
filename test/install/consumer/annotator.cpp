#include "annotator.hpp"

#include "ctrl/api/config_map.hpp"
#include "ctrl/builder/builder.hpp"

namespace consumer {

ctrl::Task<ctrl::StatusOr<ctrl::reconcile::Result>> Annotator::Reconcile(ctrl::Context ctx,
                                                                         ctrl::reconcile::Request request) {
    ctrl::api::ConfigMap config_map;
    ctrl::Status got = co_await client_.Get(ctx, request.NamespacedName(), config_map);
    if (ctrl::IsNotFound(got))
        co_return ctrl::reconcile::Result();
    CTRL_CO_RETURN_IF_ERROR(got);
    if (config_map.Annotation(kSeenAnnotation) == "true")
        co_return ctrl::reconcile::Result();
    config_map.SetAnnotation(kSeenAnnotation, "true");
    CTRL_CO_RETURN_IF_ERROR(co_await client_.Update(ctx, config_map));
    co_return ctrl::reconcile::Result();
}

ctrl::Status AddAnnotator(ctrl::manager::Manager& mgr) {
    return ctrl::builder::ControllerFor<ctrl::api::ConfigMap>(mgr)
        .Named("annotator")
        .Complete(std::make_shared<Annotator>(mgr.GetClient()));
}

}  // namespace consumer
