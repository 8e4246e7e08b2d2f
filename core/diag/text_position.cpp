#include "diag/text_position.h"

#include <algorithm>

namespace ptowb {

LineIndex::LineIndex(std::string_view text) : m_text(text)
{
    m_lineStarts.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') m_lineStarts.push_back(i + 1);
}

LineCol LineIndex::at(std::size_t offset) const
{
    offset = std::min(offset, m_text.size());
    auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    const std::size_t lineIdx = std::size_t(it - m_lineStarts.begin()) - 1;
    int col = 1;
    for (std::size_t i = m_lineStarts[lineIdx]; i < offset; ++i) {
        // Count UTF-8 lead bytes only, so a multi-byte character is one column.
        if ((static_cast<unsigned char>(m_text[i]) & 0xC0) != 0x80) ++col;
    }
    return {int(lineIdx) + 1, col};
}

} // namespace ptowb
