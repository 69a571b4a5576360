#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace ctrl::podlister {

// Lays out rows of cells in left-aligned columns the way kubectl's printer does (Go's
// text/tabwriter with minimum width 6 and padding 3): each column but the last is as wide as its
// widest cell plus 3 spaces, and never narrower than 6; the last column is not padded. Widths
// count bytes, as tabwriter does for ASCII (Kubernetes names are ASCII).
class TableWriter {
  public:
    static constexpr std::size_t kMinWidth = 6;
    static constexpr std::size_t kPadding = 3;

    void AddRow(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
    std::size_t RowCount() const { return rows_.size(); }
    // Writes every row, each ending in '\n'.
    void Write(std::ostream& out) const;

  private:
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace ctrl::podlister
