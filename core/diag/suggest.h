#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptowb {

// The candidate closest to `word` by edit distance, or "" when none is close enough to be a
// plausible typo. Used for "did you mean" hints on unknown keys, names and functions.
std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates);

// ", did you mean 'x'?" or "" — appended to messages.
// The candidates closest to `word` first (by the same edit distance), at most `limit` of them;
// ties keep the candidates' order.
std::vector<std::string> closestMatches(std::string_view word,
                                        const std::vector<std::string>& candidates,
                                        std::size_t limit);

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates);

std::string joinQuoted(const std::vector<std::string>& words, std::string_view quote = "'");

// `text` without the white space at either end: another program's output in a message.
std::string trimmed(std::string_view text);

} // namespace ptowb
