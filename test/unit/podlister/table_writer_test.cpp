#include "controllers/podlister/table_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace ctrl::podlister {
namespace {

std::string Write(const TableWriter& table) {
    std::ostringstream out;
    table.Write(out);
    return out.str();
}

// Each column is its widest cell plus 3; the last column is never padded (no trailing blanks).
TEST(TableWriterTest, PadsColumnsLikeKubectl) {
    TableWriter table;
    table.AddRow({"NAMESPACE", "NAME", "READY", "STATUS"});
    table.AddRow({"kube-system", "coredns-5d78c9869d-abcde", "1/1", "Running"});
    table.AddRow({"default", "web-0", "0/3", "Pending"});
    EXPECT_EQ(Write(table),
              "NAMESPACE     NAME                       READY   STATUS\n"
              "kube-system   coredns-5d78c9869d-abcde   1/1     Running\n"
              "default       web-0                      0/3     Pending\n");
    EXPECT_EQ(table.RowCount(), 3u);
}

// tabwriter's minimum width 6 (padding included) applies to narrow columns.
TEST(TableWriterTest, MinimumWidth) {
    TableWriter table;
    table.AddRow({"A", "B", "C"});
    table.AddRow({"x", "yy", "z"});
    EXPECT_EQ(Write(table), "A     B     C\nx     yy    z\n");
}

TEST(TableWriterTest, EmptyCellsAndNoRows) {
    TableWriter empty;
    EXPECT_EQ(Write(empty), "");
    TableWriter table;
    table.AddRow({"", "b"});
    table.AddRow({"aaaaaaaa", ""});
    EXPECT_EQ(Write(table), "           b\naaaaaaaa   \n");
}

}  // namespace
}  // namespace ctrl::podlister
