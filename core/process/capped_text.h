#pragma once

// Keeps the head and the tail of a stream of any length: a program that prints gigabytes leaves
// a few MiB, and the end, where the error usually is, is kept. One implementation for the logs of
// runners and deploy commands and for the kernel's print output. Standard C++ only.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ptowb::process {

inline constexpr std::size_t kLogHeadBytes = std::size_t(1) << 20;
inline constexpr std::size_t kLogTailBytes = std::size_t(1) << 20;

class CappedText
{
public:
    explicit CappedText(std::size_t headBytes = kLogHeadBytes,
                        std::size_t tailBytes = kLogTailBytes)
        : m_headBytes(headBytes), m_tailBytes(tailBytes)
    {
    }

    void append(std::string_view data);

    std::uint64_t total() const { return m_total; } // bytes appended
    std::uint64_t omitted() const;                  // bytes between the head and the tail kept
    // The head, a line saying how much was left out (when anything was), and the tail.
    std::string text() const;
    std::string recent(std::size_t bytes) const; // the last `bytes` appended (or all of them)

private:
    std::string_view tail() const;

    std::size_t m_headBytes, m_tailBytes;
    std::uint64_t m_total = 0;
    std::string m_head, m_tail;
};

} // namespace ptowb::process
