#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace ptowb {

struct LineCol
{
    int line = 1; // 1-based
    int col = 1;  // 1-based, in Unicode code points
};

// Maps byte offsets in a text to line:column. Built once per file; lookups are O(log lines).
class LineIndex
{
public:
    explicit LineIndex(std::string_view text);
    LineCol at(std::size_t offset) const;

private:
    std::string_view m_text;
    std::vector<std::size_t> m_lineStarts;
};

} // namespace ptowb
