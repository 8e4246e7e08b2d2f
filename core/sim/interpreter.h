#pragma once

// The kernel interpreter behind the simulator, internal to core/sim: statements, expressions
// and pypto calls are in interpreter.cpp; tensor semantics and value conversions in
// interpreter_tensor_ops.cpp.
#include "sim/simulator.h"

#include "kernel/pypto_api.h"
#include "rules/shape_functions.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptowb::sim {

using kernel::Expr;
using kernel::ExprKind;
using kernel::ExprPtr;
using kernel::Pos;
using kernel::Stmt;
using kernel::StmtKind;

// A runtime error at a kernel position; runKernel turns it into a diagnostic.
struct SimError
{
    Pos pos;
    std::string message;
    std::string code = "sim.error";
};

std::string shapeText(at::IntArrayRef sizes);
std::optional<shapefn::Shape> broadcastShapes(const std::vector<shapefn::Shape>& shapes);
std::string dtypeText(const at::Tensor& t);
bool isLowPrecision(const at::Tensor& t);
// Emulates an op of the device: computed in float32, rounded to the operand dtype once per op.
at::Tensor rounded(const at::Tensor& result, at::ScalarType dtype);
at::Tensor widened(const at::Tensor& t);

class Interpreter
{
public:
    Interpreter(const kernel::Module& module, const std::string& file, const RunOptions& options, RunResult& result);
    void run(const kernel::FunctionDef& f, const std::map<std::string, Value>& arguments);

private:
    // --- statements ---
    void block(const std::vector<Stmt>& body);
    void statement(const Stmt& s);
    void assign(const ExprPtr& target, const Value& v);
    void capture(int line, const std::string& name, const at::Tensor& value);

    // Writes `v` into `view` (which shares storage with a kernel tensor), broadcasting as
    // the device does, in the view's dtype.
    void store(at::Tensor& view, const Value& v, Pos pos, const std::string& what);

    // --- expressions ---
    Value eval(const ExprPtr& e);
    Value attribute(const Value& base, const Expr& e);

    // --- calls ---
    struct Args
    {
        std::vector<Value> values;  // by position in the API's parameter list
        std::vector<bool> given;
        std::vector<Pos> positions;
        std::vector<std::pair<std::string, Value>> keywordOnly;
    };
    Value call(const Expr& e);
    Value builtin(const std::string& name, const std::vector<Value>& args, const Expr& e);
    Value loopRange(std::int64_t start, std::int64_t stop, std::int64_t step, Pos pos);
    Args bindArgs(const kernel::ApiFunction& api, std::vector<Value> positional, const Expr& e);
    static const Value* keyword(const Args& a, const char* name);
    Value callApi(const std::string& name, std::vector<Value> positional, const Expr& e);

    // --- tensor semantics ---
    Value tensorResult(at::Tensor t, const std::string&) { return Value::ofTensor(std::move(t)); }

    // A vec tile must have the rank of the tensors it tiles, and the buffers one vector op
    // keeps live (its operands and result, one tile each) must fit in the unified buffer.
    void checkTile(const at::Tensor& result, int liveBuffers, const std::string& fn, Pos pos);
    void vectorCost(const std::string& what, const at::Tensor& t, int passes = 1);
    Value unary(const std::string& name, const at::Tensor& x, const Expr& e);
    Value binary(const std::string& op, const Value& a, const Value& b, Pos pos);
    Value binaryScalar(const std::string& op, const Value& a, const Value& b, Pos pos);
    Value compareTensors(const std::string& op, const Value& a, const Value& b, Pos pos);
    bool compareScalars(const std::string& op, const Value& a, const Value& b, Pos pos);

    // Reductions run in vec-tile order: each tile's partial result is rounded to the operand
    // dtype, then the partials are combined one by one in that dtype, as the vector unit does.
    Value reduce(const std::string& name, const at::Tensor& x, const Value& dimArg, bool keepdim, const Expr& e);
    at::Tensor reduceDim(const std::string& name, const at::Tensor& x, std::int64_t dim);

    // fp32 accumulation, then the result cast to out_dtype.
    Value matmul(const at::Tensor& a, const at::Tensor& b, DType outDType, const Args& args, const Expr& e);
    at::Tensor narrowed(const at::Tensor& x, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& offsets, Pos pos, const std::string& fn);
    Value view(const at::Tensor& x, const Args& a, const Expr& e);

    // t[i, a:b, ..., ::s] as a view of t.
    at::Tensor index(const at::Tensor& t, const Expr& sub);

    // --- conversions ---
    void checkDim(std::int64_t d, const at::Tensor& x, Pos pos, const std::string& fn);
    void checkBroadcast(const std::vector<std::vector<std::int64_t>>& shapes, Pos pos, const std::string& what);
    at::Tensor tensor(const Value& v, const Expr& e, const std::string& fn);
    DType dtypeOf(const at::Tensor& t, Pos pos);
    DType dtypeArg(const Value& v, Pos pos);
    std::int64_t integer(const Value& v, Pos pos);
    double number(const Value& v, Pos pos);
    at::Scalar scalar(const Value& v, Pos pos);
    std::vector<std::int64_t> ints(const Value& v, Pos pos);
    bool truth(const Value& v, Pos pos);
    static std::string describe(const Value& v);
    static std::string exprText(const Expr& e);
    const std::string& m_file;
    const RunOptions& m_options;
    RunResult& m_result;
    std::map<std::string, Value> m_globals;
    std::map<std::string, Value> m_locals;
    std::vector<std::int64_t> m_vecTile;
    Pos m_vecTilePos;
    int m_line = 0;
    std::optional<CostModel> m_cost;
};

} // namespace ptowb::sim
