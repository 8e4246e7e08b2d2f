#pragma once

#include <string>
#include <vector>

namespace ptowb {

// A line-by-line comparison of two texts as unified-diff hunks, for showing what a new
// generation of the glue changed.
struct DiffLine
{
    enum class Kind
    {
        Context,
        Added,
        Removed
    };
    Kind kind = Kind::Context;
    int oldLine = 0; // 1-based; 0 for an added line
    int newLine = 0; // 1-based; 0 for a removed line
    std::string text;
};

struct DiffHunk
{
    int oldStart = 0, oldCount = 0, newStart = 0, newCount = 0;
    std::vector<DiffLine> lines;
};

struct LineDiff
{
    std::vector<DiffHunk> hunks;
    int added = 0;
    int removed = 0;

    bool identical() const { return added == 0 && removed == 0; }
    // "--- a/<label>" / "+++ b/<label>" and "@@ -a,b +c,d @@" hunks, as `diff -u` writes them.
    std::string unified(const std::string& label) const;
};

std::vector<std::string> splitLines(const std::string& text);
LineDiff diffLines(const std::string& before, const std::string& after, int context = 3);

} // namespace ptowb
