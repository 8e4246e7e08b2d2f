#include "process/capped_text.h"

#include <algorithm>

namespace ptowb::process {

void CappedText::append(std::string_view data)
{
    m_total += data.size();
    const std::size_t toHead = std::min(m_headBytes - m_head.size(), data.size());
    m_head.append(data.substr(0, toHead));
    data.remove_prefix(toHead);
    if (data.size() >= m_tailBytes) {
        m_tail.assign(data.substr(data.size() - m_tailBytes));
        return;
    }
    m_tail.append(data);
    // Trimmed only past twice the size: one copy per tail's worth of input, however it arrives.
    if (m_tail.size() > 2 * m_tailBytes) m_tail.erase(0, m_tail.size() - m_tailBytes);
}

std::string_view CappedText::tail() const
{
    std::string_view t = m_tail;
    return t.substr(t.size() - std::min(t.size(), m_tailBytes));
}

std::uint64_t CappedText::omitted() const
{
    return m_total - m_head.size() - tail().size();
}

std::string CappedText::text() const
{
    std::string out = m_head;
    if (const std::uint64_t left = omitted(); left > 0)
        out += "\n[ptowb: " + std::to_string(left) +
               " bytes left out here; the log keeps the first and the last MiB]\n";
    out += tail();
    return out;
}

std::string CappedText::recent(std::size_t bytes) const
{
    std::string_view t = tail();
    if (t.size() >= bytes) return std::string(t.substr(t.size() - bytes));
    const std::string_view head = m_head; // nothing was left out: the head runs into the tail
    const std::size_t fromHead = std::min(head.size(), bytes - t.size());
    return std::string(head.substr(head.size() - fromHead)) + std::string(t);
}

} // namespace ptowb::process
