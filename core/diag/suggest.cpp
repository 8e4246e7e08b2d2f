#include "diag/suggest.h"

#include <algorithm>
#include <numeric>

namespace ptowb {
namespace {

std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), 0);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates)
{
    std::string best;
    std::size_t bestDistance = std::max<std::size_t>(2, word.size() / 3) + 1;
    for (const auto& candidate : candidates) {
        const std::size_t d = editDistance(word, candidate);
        if (d < bestDistance) {
            bestDistance = d;
            best = candidate;
        }
    }
    return best;
}

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates)
{
    const std::string match = closestMatch(word, candidates);
    return match.empty() ? std::string() : "; did you mean '" + match + "'?";
}

std::string joinQuoted(const std::vector<std::string>& words, std::string_view quote)
{
    std::string out;
    for (const auto& w : words) {
        if (!out.empty()) out += ", ";
        out += quote;
        out += w;
        out += quote;
    }
    return out;
}

} // namespace ptowb
