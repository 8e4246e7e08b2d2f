#include "text/line_diff.h"

#include <algorithm>
#include <dtl/dtl.hpp>

namespace ptowb {

std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

LineDiff diffLines(const std::string& before, const std::string& after, int context)
{
    const std::vector<std::string> a = splitLines(before), b = splitLines(after);
    dtl::Diff<std::string> diff(a, b, true); // deletions before insertions, as diff -u orders them
    diff.compose();

    // The edit script line by line, then hunks: changes with up to `context` lines around
    // them, neighbouring changes merged when their context would touch.
    std::vector<DiffLine> script;
    for (const auto& [text, info] : diff.getSes().getSequence()) {
        DiffLine line;
        line.text = text;
        if (info.type == dtl::SES_ADD) {
            line.kind = DiffLine::Kind::Added;
            line.newLine = int(info.afterIdx);
        } else if (info.type == dtl::SES_DELETE) {
            line.kind = DiffLine::Kind::Removed;
            line.oldLine = int(info.beforeIdx);
        } else {
            line.oldLine = int(info.beforeIdx);
            line.newLine = int(info.afterIdx);
        }
        script.push_back(std::move(line));
    }

    LineDiff out;
    const int n = int(script.size());
    int k = 0;
    while (k < n) {
        while (k < n && script[std::size_t(k)].kind == DiffLine::Kind::Context)
            ++k;
        if (k == n) break;
        const int first = std::max(0, k - context);
        int last = k; // last changed line of the hunk
        for (int j = k; j < n; ++j) {
            if (script[std::size_t(j)].kind != DiffLine::Kind::Context)
                last = j;
            else if (j - last > 2 * context)
                break;
        }
        const int end = std::min(n, last + context + 1);
        DiffHunk hunk;
        // Where the hunk starts in each text: the first line it has from that text, or the
        // line before it when it has none (diff -u's convention for empty ranges).
        for (int j = first; j < end; ++j) {
            const DiffLine& line = script[std::size_t(j)];
            if (line.kind != DiffLine::Kind::Added) {
                if (hunk.oldCount++ == 0) hunk.oldStart = line.oldLine;
            }
            if (line.kind != DiffLine::Kind::Removed) {
                if (hunk.newCount++ == 0) hunk.newStart = line.newLine;
            }
            if (line.kind == DiffLine::Kind::Added) ++out.added;
            if (line.kind == DiffLine::Kind::Removed) ++out.removed;
            hunk.lines.push_back(line);
        }
        auto before = [&](bool old) {
            int previous = 0;
            for (int j = first - 1; j >= 0 && previous == 0; --j)
                previous = old ? script[std::size_t(j)].oldLine : script[std::size_t(j)].newLine;
            return previous;
        };
        if (hunk.oldCount == 0) hunk.oldStart = before(true);
        if (hunk.newCount == 0) hunk.newStart = before(false);
        out.hunks.push_back(std::move(hunk));
        k = end;
    }
    return out;
}

std::string LineDiff::unified(const std::string& label) const
{
    if (identical()) return {};
    std::string out = "--- a/" + label + "\n+++ b/" + label + "\n";
    auto range = [](int start, int count) {
        return count == 1 ? std::to_string(start)
                          : std::to_string(start) + "," + std::to_string(count);
    };
    for (const DiffHunk& hunk : hunks) {
        out += "@@ -" + range(hunk.oldStart, hunk.oldCount) + " +" +
               range(hunk.newStart, hunk.newCount) + " @@\n";
        for (const DiffLine& line : hunk.lines) {
            out += line.kind == DiffLine::Kind::Added     ? '+'
                   : line.kind == DiffLine::Kind::Removed ? '-'
                                                          : ' ';
            out += line.text;
            out += '\n';
        }
    }
    return out;
}

} // namespace ptowb
