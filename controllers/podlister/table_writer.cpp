#include "controllers/podlister/table_writer.hpp"

#include <algorithm>

namespace ctrl::podlister {

void TableWriter::Write(std::ostream& out) const {
    std::vector<std::size_t> widths;
    for (const std::vector<std::string>& row : rows_) {
        // The last cell of a row is not part of a column (tabwriter pads terminated cells only).
        for (std::size_t column = 0; column + 1 < row.size(); ++column) {
            if (widths.size() <= column)
                widths.push_back(kMinWidth);
            widths[column] = std::max(widths[column], row[column].size() + kPadding);
        }
    }
    std::string line;
    for (const std::vector<std::string>& row : rows_) {
        line.clear();
        for (std::size_t column = 0; column < row.size(); ++column) {
            line += row[column];
            if (column + 1 < row.size())
                line.append(widths[column] - row[column].size(), ' ');
        }
        line += '\n';
        out << line;
    }
}

}  // namespace ctrl::podlister
