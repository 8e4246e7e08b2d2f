#ifndef PTOWB_CANN_API_GRAPH_TYPES_H
#define PTOWB_CANN_API_GRAPH_TYPES_H

// Declarations of the CANN API that generated sources use (see ../README.md): the types and
// constants of graph/types.h and graph/ge_error_codes.h.
#include <cstdint>
#include <vector>

namespace ge {

typedef char char_t;
typedef float float32_t;
typedef double float64_t;

typedef std::uint32_t graphStatus;
const graphStatus GRAPH_FAILED = 0xFFFFFFFF;
const graphStatus GRAPH_SUCCESS = 0;

// An unknown dim, and the dims of an unknown rank.
static const std::int64_t UNKNOWN_DIM = -1;
static const std::int64_t UNKNOWN_DIM_NUM = -2;
static const std::vector<std::int64_t> UNKNOWN_SHAPE = {-1};
static const std::vector<std::int64_t> UNKNOWN_RANK = {-2};

// The enumerators generated code names, with CANN's values.
enum DataType
{
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
};

enum Format
{
    FORMAT_NCHW = 0,
    FORMAT_NHWC = 1,
    FORMAT_ND = 2,
};

} // namespace ge

namespace domi {

enum class ImplyType : unsigned int
{
    BUILDIN = 0,
    TVM,
    CUSTOM,
    AI_CPU,
    CCE,
    GELOCAL,
    HCCL,
    INVALID = 0xFFFFFFFF,
};

} // namespace domi

#endif
