#include "diag/suggest.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace ptowb {
namespace {

// Optimal string alignment distance: a swap of two neighbours ("veiw") costs one edit, as
// it is the commonest typo.
std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                                d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates)
{
    std::string best;
    std::size_t bestDistance = std::max<std::size_t>(2, word.size() / 3) + 1;
    for (const auto& candidate : candidates) {
        const std::size_t d = editDistance(word, candidate);
        if (d >= word.size()) continue; // nothing of the word is left: not a typo of it
        if (d < bestDistance) {
            bestDistance = d;
            best = candidate;
        }
    }
    return best;
}

std::vector<std::string>
closestMatches(std::string_view word, const std::vector<std::string>& candidates, std::size_t limit)
{
    std::vector<std::pair<std::size_t, std::size_t>> ranked; // distance, index
    for (std::size_t k = 0; k < candidates.size(); ++k)
        ranked.emplace_back(editDistance(word, candidates[k]), k);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (std::size_t k = 0; k < ranked.size() && out.size() < limit; ++k)
        out.push_back(candidates[ranked[k].second]);
    return out;
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

std::string trimmed(std::string_view text)
{
    const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (!text.empty() && space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && space(text.back()))
        text.remove_suffix(1);
    return std::string(text);
}

} // namespace ptowb
