#ifndef PTOWB_CANN_API_GRAPH_ASCEND_STRING_H
#define PTOWB_CANN_API_GRAPH_ASCEND_STRING_H

// ge::AscendString: CANN's ABI-stable string (graph/ascend_string.h).
#include "graph/types.h"

#include <cstddef>
#include <memory>
#include <string>

namespace ge {

class AscendString
{
public:
    AscendString() = default;
    AscendString(const char_t* const name);
    AscendString(const char_t* const name, std::size_t length);
    const char_t* GetString() const;
    std::size_t GetLength() const;
    bool operator<(const AscendString& d) const;
    bool operator==(const AscendString& d) const;
    bool operator==(const char_t* const d) const;

private:
    std::shared_ptr<std::string> name_;
};

} // namespace ge

#endif
