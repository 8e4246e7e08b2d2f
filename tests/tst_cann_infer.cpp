// The generated infer functions, compiled as C++11 with the old ABI and linked with the doubles
// of tests/cann_api, run on the shapes GE gives: the graph's InferShape (op_proto, over
// ge::Operator) and the runtime's InferShape/InferDataType (op_host, registered both ways OP_ADD
// registers them). On every case of the description they give what the workbench infers; with
// any dim unknown (-1) or any rank unknown ({-2}) they still succeed, every dim they report is
// the true one or -1, and the dtypes stay exact; named cases pin dynamic batch and unknown rank
// exactly, and a violated constraint fails.
#include "cann_test_support.h"
#include "codegen/cpp_rule_emitter.h"
#include "spec/inference.h"

#include <QTemporaryDir>
#include <QTest>
#include <cstdio>
#include <cstring>
#include <map>

using namespace ptowb;
using rules::Value;

namespace {

int geDType(DType d)
{
    static const std::map<std::string, int> kValues{
        {"DT_FLOAT", 0}, {"DT_FLOAT16", 1}, {"DT_INT8", 2},    {"DT_INT32", 3}, {"DT_UINT8", 4},
        {"DT_INT16", 6}, {"DT_INT64", 9},   {"DT_DOUBLE", 11}, {"DT_BOOL", 12}, {"DT_BF16", 27}};
    return kValues.at(std::string(dtypeInfo(d).cann));
}

std::string dims(const std::vector<std::int64_t>& d)
{
    std::string out;
    for (auto v : d)
        out += (out.empty() ? "" : ", ") + std::to_string(v);
    return "[" + out + "]";
}

std::string floatLiteral(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9gf", v);
    return std::string(buf).find_first_of(".e") == std::string::npos
               ? std::string(buf).insert(std::strlen(buf) - 1, ".0")
               : buf;
}

// A parameter value as the C++ both APIs take, and as a runtime attribute.
std::string attrValue(ParamType type, const Value& v)
{
    std::string items;
    switch (type) {
    case ParamType::Bool:
        return v.asBool() ? "true" : "false";
    case ParamType::Int:
        return "std::int64_t(" + std::to_string(v.i) + "LL)";
    case ParamType::Float:
        return floatLiteral(v.f);
    case ParamType::Str:
        return "std::string(" + codegen::cppCharLiteral(v.s) + ", " + std::to_string(v.s.size()) +
               ")";
    case ParamType::IntList:
        for (auto i : v.ints)
            items += (items.empty() ? "" : ", ") + std::to_string(i) + "LL";
        return "std::vector<std::int64_t>{" + items + "}";
    case ParamType::FloatList:
        for (auto f : v.floats)
            items += (items.empty() ? "" : ", ") + floatLiteral(f);
        return "std::vector<float>{" + items + "}";
    }
    return {};
}

struct Case
{
    std::vector<rules::TensorInfo> inputs; // shapes may hold -1, or be {-2}
    std::vector<Value> params;
};

// One case, run through the runtime's and the graph's infer functions; prints
// "<id> runtime <shapes or failed> | <dtypes or failed>" and "<id> graph <shapes> | <dtypes>".
std::string caseCode(const OpSpec& spec, const Case& c, std::size_t id)
{
    const std::string op = codegen::cppCharLiteral(spec.opType);
    std::string shapes, dtypes, attrs, graph;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        std::string d;
        for (auto v : c.inputs[k].shape)
            d += (d.empty() ? "" : ", ") + std::to_string(v) + "LL";
        const std::string dt = "ge::" + std::string(dtypeInfo(c.inputs[k].dtype).cann);
        shapes += (k ? ", " : "") + ("std::vector<std::int64_t>{" + d + "}");
        dtypes += (k ? ", " : "") + dt;
        graph += "        op.UpdateInputDesc(" + codegen::cppCharLiteral(spec.inputs[k].name) +
                 ", ge::TensorDesc(ge::Shape(std::vector<std::int64_t>{" + d +
                 "}), ge::FORMAT_ND, " + dt + "));\n";
    }
    static const char* const kMake[] = {"attrBool", "attrInt",  "attrFloat",
                                        "attrStr",  "attrInts", "attrFloats"};
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const std::string value = attrValue(spec.params[k].type, c.params[k]);
        attrs +=
            std::string("ptowb_test::") + kMake[int(spec.params[k].type)] + "(" + value + "), ";
        const std::string setValue =
            spec.params[k].type == ParamType::Str
                ? "ge::AscendString(" + value + ".c_str(), " + value + ".size())"
                : value;
        graph += "        op.SetAttr(" + codegen::cppCharLiteral(spec.params[k].name) + ", " +
                 setValue + ");\n";
    }
    std::string outputs;
    for (const auto& o : spec.outputs)
        outputs += (outputs.empty() ? "" : ", ") + codegen::cppCharLiteral(o.name);
    const std::string tag = std::to_string(id);
    return "    {\n        ptowb_test::RuntimeCall call;\n        call.inputShapes = {" + shapes +
           "};\n        call.inputDTypes = {" + dtypes + "};\n        call.attrs = {" + attrs +
           "ptowb_test::absent()};\n        call.outputs = " + std::to_string(spec.outputs.size()) +
           ";\n        std::cout << \"" + tag + " runtime \" << runtime(" + op +
           ", call) << '\\n';\n        ge::Operator op = ptowb_test::createOperator(" + op +
           ", \"node\");\n" + graph + "        std::cout << \"" + tag + " graph \" << graphInfer(" +
           op + ", op, {" + outputs + "}) << '\\n';\n    }\n";
}

const char* const kDriverHead = R"CPP(
#include "cann_doubles.h"

#include <iostream>

std::string runtime(const char* type, ptowb_test::RuntimeCall& call)
{
    std::string out;
    if (ptowb_test::callInferShape(ptowb_test::runtimeInferShape(type), call) != ge::GRAPH_SUCCESS) out = "failed";
    else
        for (std::size_t k = 0; k < call.outputShapes.size(); ++k) out += (k ? " " : "") + ptowb_test::dimsText(call.outputShapes[k]);
    out += " |";
    if (ptowb_test::callInferDataType(ptowb_test::runtimeInferDataType(type), call) != ge::GRAPH_SUCCESS) return out + " failed";
    for (std::size_t k = 0; k < call.outputDTypes.size(); ++k) out += " " + std::to_string(static_cast<int>(call.outputDTypes[k]));
    return out;
}

std::string graphInfer(const char* type, ge::Operator& op, const std::vector<const char*>& outputs)
{
    if (ptowb_test::inferShapeFunction(type)(op) != ge::GRAPH_SUCCESS) return "failed";
    std::string shapes, dtypes;
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        const ge::TensorDesc desc = op.GetOutputDescByName(outputs[k]);
        shapes += (k ? " " : "") + ptowb_test::dimsText(desc.GetShape().GetDims());
        dtypes += " " + std::to_string(static_cast<int>(desc.GetDataType()));
    }
    return shapes + " |" + dtypes;
}

int main()
{
)CPP";

// What the workbench infers, in the driver's notation ("failed | ..." when a constraint fails).
std::string expected(const OpSpec& spec, const Case& c)
{
    auto inferred = inferOutputs(spec, c.inputs, c.params);
    if (!std::holds_alternative<std::vector<InferredOutput>>(inferred)) return "failed";
    std::string shapes, dtypes;
    for (const auto& o : std::get<std::vector<InferredOutput>>(inferred)) {
        shapes += (shapes.empty() ? "" : " ") + dims(o.shape);
        dtypes += " " + std::to_string(geDType(o.dtype));
    }
    return shapes + " |" + dtypes;
}

// A result with unknowns is sound when it could be the known one: the same dtypes, and per
// output an unknown rank or the same rank with each dim the true one or -1.
bool sound(const QString& got, const std::string& truth)
{
    const QStringList g = got.split(QStringLiteral(" | ")),
                      t = QString::fromStdString(truth).split(QStringLiteral(" | "));
    if (g.size() != 2 || t.size() != 2 || g[1] != t[1]) return false;
    const QRegularExpression list(QStringLiteral("\\[([^\\]]*)\\]"));
    QStringList gl, tl;
    for (auto it = list.globalMatch(g[0]); it.hasNext();)
        gl << it.next().captured(1);
    for (auto it = list.globalMatch(t[0]); it.hasNext();)
        tl << it.next().captured(1);
    if (gl.size() != tl.size()) return false;
    for (int k = 0; k < gl.size(); ++k) {
        if (gl[k] == QLatin1String("-2")) continue;
        const QStringList gd = gl[k].split(QStringLiteral(", "), Qt::SkipEmptyParts),
                          td = tl[k].split(QStringLiteral(", "), Qt::SkipEmptyParts);
        if (gd.size() != td.size()) return false;
        for (int d = 0; d < gd.size(); ++d)
            if (gd[d] != td[d] && gd[d] != QLatin1String("-1")) return false;
    }
    return true;
}

} // namespace

class TestCannInfer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void inferFunctions_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("mode");
        for (const QString& folder : cann_test::opFolders())
            for (const char* mode : {"", "-DOP_PROTO_LIB"})
                QTest::newRow(qPrintable(QFileInfo(folder).fileName() +
                                         (*mode ? QStringLiteral(" OP_PROTO_LIB") : QString())))
                    << folder << QString::fromLatin1(mode);
    }

    void inferFunctions()
    {
        QFETCH(QString, folder);
        QFETCH(QString, mode);
        const auto sources = cann_test::sourcesOf(folder);
        // What the graph compiler sees: a mutated input is also an output (a ref tensor).
        const OpSpec spec = codegen::graphCompilerSpec(sources.loaded.spec);

        // Every case of the description, then each with one dim unknown, then each input of an
        // unknown rank.
        std::vector<Case> exact, unknown;
        std::vector<std::string> truths;
        for (const auto& cs : spec.cases) {
            Case c;
            for (const auto& in : cs.inputs)
                c.inputs.push_back({in.shape, in.dtype});
            c.params = cs.params;
            exact.push_back(c);
            for (std::size_t k = 0; k < c.inputs.size(); ++k) {
                for (std::size_t d = 0; d < c.inputs[k].shape.size(); ++d) {
                    Case u = c;
                    u.inputs[k].shape[d] = -1;
                    unknown.push_back(u), truths.push_back(expected(spec, c));
                }
                Case r = c;
                r.inputs[k].shape = {-2};
                unknown.push_back(r), truths.push_back(expected(spec, c));
            }
        }
        const std::size_t knownCount = exact.size();
        std::vector<std::string> exactWant;
        for (const Case& c : exact)
            exactWant.push_back(expected(spec, c));
        addNamedCases(spec, exact, exactWant);

        std::string driver = kDriverHead;
        for (std::size_t k = 0; k < exact.size(); ++k)
            driver += caseCode(spec, exact[k], k);
        for (std::size_t k = 0; k < unknown.size(); ++k)
            driver += caseCode(spec, unknown[k], exact.size() + k);
        driver += "    return 0;\n}\n";

        QTemporaryDir dir;
        const auto files = cann_test::cannFiles(sources);
        QStringList units;
        for (const char* suffix : {"_proto.cc", "op_host/"}) {
            const auto* f = cann_test::findFile(files, suffix == std::string("op_host/")
                                                           ? "op_host/" + spec.name + ".cpp"
                                                           : spec.name + suffix);
            QVERIFY(f);
            units << dir.filePath(QString::fromStdString(f->path));
            QVERIFY(cann_test::writeText(units.back(), f->content));
        }
        for (const char* name : {"_proto.h", "_rule_support.h"}) {
            const auto* header = cann_test::findFile(files, name);
            QVERIFY(header);
            QVERIFY(cann_test::writeText(dir.filePath(QString::fromStdString(header->path)),
                                         header->content));
        }
        units << dir.filePath(QStringLiteral("driver.cc"));
        QVERIFY(cann_test::writeText(units.back(), driver));
        QStringList flags =
            cann_test::cannFlags(QStringLiteral("c++11")) + cann_test::apiFlags(false) +
            QStringList{QStringLiteral("-O0"), QStringLiteral("-I") + cann_test::declarationsDir() +
                                                   QStringLiteral("/doubles")};
        if (!mode.isEmpty()) flags << mode;
        const QString binary = dir.filePath(QStringLiteral("driver"));
        const cann_test::Run built = cann_test::compile(flags + units + cann_test::doubleSources() +
                                                        QStringList{QStringLiteral("-o"), binary});
        QVERIFY2(built.ok, qPrintable(built.output.left(8000)));
        const cann_test::Run ran = cann_test::run(binary, {}, {}, true);
        QVERIFY2(ran.ok, qPrintable(ran.output + ran.errors));

        const QStringList lines = ran.output.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), int(2 * (exact.size() + unknown.size())));
        for (std::size_t k = 0; k < exact.size(); ++k) {
            const QString runtime = lines[int(2 * k)].section(' ', 2),
                          graph = lines[int(2 * k + 1)].section(' ', 2);
            const QString want = QString::fromStdString(exactWant[k]);
            // A constraint on shapes fails InferShape; InferDataType has no shapes and leaves it to
            // InferShape.
            const bool runtimeOk = want == QLatin1String("failed")
                                       ? runtime.startsWith(QLatin1String("failed |"))
                                       : runtime == want;
            QVERIFY2(
                runtimeOk,
                qPrintable(
                    QStringLiteral("case %1 runtime: %2, expected %3").arg(k).arg(runtime, want)));
            QVERIFY2(graph == want,
                     qPrintable(
                         QStringLiteral("case %1 graph: %2, expected %3").arg(k).arg(graph, want)));
        }
        for (std::size_t k = 0; k < unknown.size(); ++k)
            for (int api = 0; api < 2; ++api) {
                const QString got = lines[int(2 * (exact.size() + k) + api)].section(' ', 2);
                QVERIFY2(sound(got, truths[k]),
                         qPrintable(
                             QStringLiteral("%1 with unknowns %2 (%3): %4, the known case gives %5")
                                 .arg(QString::fromStdString(spec.name),
                                      QString::fromStdString(dims(unknown[k].inputs[0].shape)),
                                      api ? QStringLiteral("graph") : QStringLiteral("runtime"),
                                      got, QString::fromStdString(truths[k]))));
            }
        qInfo("%d known cases, %d named cases, %d cases with unknown dims or ranks, each through "
              "both APIs",
              int(knownCount), int(exact.size() - knownCount), int(unknown.size()));
    }

private:
    // Exact results for shapes GE marks unknown: dynamic batch, unknown rank, and violations.
    static void addNamedCases(const OpSpec& spec, std::vector<Case>& cases,
                              std::vector<std::string>& want)
    {
        auto add = [&](std::vector<rules::TensorInfo> inputs, std::vector<Value> params,
                       std::string result) {
            cases.push_back({std::move(inputs), std::move(params)});
            want.push_back(std::move(result));
        };
        const auto f16 = DType::Float16, f32 = DType::Float32, bf16 = DType::BFloat16;
        if (spec.name == "scale_gelu") {
            const std::vector<Value> p{Value::ofFloat(0.5), Value::ofInt(32)};
            add({{{-1, 64}, f16}}, p,
                "[-1, 32] | 1"); // a dynamic batch passes channels <= x.shape[1]
            add({{{4, -1}, f16}}, p, "[4, 32] | 1"); // the constraint on an unknown dim is deferred
            add({{{-2}, f32}}, p, "[-1, 32] | 0");   // an unknown rank: the rule still gives rank 2
            add({{{-1, 16}, f16}}, p, "failed");     // 32 channels of 16: known, so it fails
        } else if (spec.name == "softmax") {
            add({{{-1, 10}, f32}}, {}, "[-1, 10] | 0");
            add({{{-2}, f16}}, {}, "[-2] | 1"); // x.shape of an unknown rank is an unknown rank
            add({{{2, 3, 4}, f32}}, {}, "failed");
        } else if (spec.name == "matmul_bias") {
            const std::vector<Value> p{Value::ofBool(false)};
            add({{{-1, 8}, f16}, {{8, 16}, f16}, {{16}, f32}}, p, "[-1, 16] | 0");
            add({{{-2}, f16}, {{8, 16}, f16}, {{16}, f32}}, p, "[-2] | 0");
            add({{{4, 8}, f16}, {{-1, -1}, f16}, {{16}, f32}}, p, "[4, -1] | 0");
            add({{{4, 8}, f16}, {{7, 16}, f16}, {{16}, f32}}, p, "failed");
            add({{{4, 8}, f16}, {{8, 16}, bf16}, {{16}, f32}}, p, "failed"); // a.dtype == b.dtype
        } else if (spec.name == "odd_op") {
            std::vector<Value> p;
            for (const auto& param : spec.params)
                p.push_back(param.defaultValue ? *param.defaultValue : Value::ofInt(4));
            add({{{-1, 8}, f32}, {{5}, f32}}, p, "[-1, 4] [3] | 0 0");
            add({{{-2}, f16}, {{-1}, f32}}, p, "[-1, 4] [3] | 1 0");
            p[std::size_t(spec.paramIndex("mode"))] = Value::ofStr("");
            add({{{-1, 8}, f32}, {{5}, f32}}, p,
                "failed"); // mode must not be empty: known even without shapes
        }
    }
};

QTEST_GUILESS_MAIN(TestCannInfer)
#include "tst_cann_infer.moc"
