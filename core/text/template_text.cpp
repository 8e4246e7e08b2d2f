#include "text/template_text.h"

#include <stdexcept>

namespace ptowb {

std::string fillTemplate(std::string_view text,
                         const std::vector<std::pair<std::string, std::string>>& values)
{
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t open = text.find('@', pos);
        if (open == std::string_view::npos) break;
        const std::size_t close = text.find('@', open + 1);
        bool replaced = false;
        if (close != std::string_view::npos) {
            const std::string_view key = text.substr(open + 1, close - open - 1);
            for (const auto& [name, value] : values)
                if (name == key) {
                    out.append(text.substr(pos, open - pos));
                    out += value;
                    pos = close + 1;
                    replaced = true;
                    break;
                }
        }
        if (!replaced) {
            out.append(text.substr(pos, open + 1 - pos));
            pos = open + 1;
        }
    }
    out.append(text.substr(pos));
    return out;
}

} // namespace ptowb
