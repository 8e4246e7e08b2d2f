// End to end: every sample project is exported, and its generated glue runs for real —
// Python with Debian's torch and onnx and with the newest torch, onnx and ONNX Runtime, the
// C++ op library and the ONNX schema library built with CMake against libtorch and libonnx,
// and ptowb-cli onnx-infer / inspect on the model the Python side exported. C++ builds are cached
// in the build tree (and by ccache).
#include "package/package_check.h"
#include "package/package_export.h"
#include "spec/inference.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace ptowb;

namespace {

struct Output
{
    int exitCode = -1;
    QString text;
};

Output run(const QString& program, const QStringList& args, int timeoutMs = 600000,
           const QString& backend = {})
{
    QProcess p;
    if (!backend.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PTOWB_BACKEND"), backend);
        p.setProcessEnvironment(env);
    }
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    Output out;
    if (!p.waitForStarted(10000)) {
        out.text = QStringLiteral("cannot start %1").arg(program);
        return out;
    }
    p.waitForFinished(timeoutMs);
    out.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    out.text = QString::fromUtf8(p.readAll());
    return out;
}

// Configures and builds one of the package's CMake projects (`torch` or `onnx`) in `build`, with
// ccache when there is one; returns the failing step's output, or nothing.
QString buildPackageProject(const QString& source, const QString& build,
                            const QStringList& extra = {})
{
    QStringList args{QStringLiteral("-S"),
                     source,
                     QStringLiteral("-B"),
                     build,
                     QStringLiteral("-DCMAKE_BUILD_TYPE=Release"),
                     QStringLiteral("-DCMAKE_CXX_COMPILER=" PTOWB_CXX)};
    if (!QStringLiteral(PTOWB_CCACHE).isEmpty())
        args << QStringLiteral("-DCMAKE_CXX_COMPILER_LAUNCHER=" PTOWB_CCACHE);
    const Output configure = run(QStringLiteral(PTOWB_CMAKE), args + extra);
    if (configure.exitCode != 0) return configure.text;
    const Output built = run(QStringLiteral(PTOWB_CMAKE), {QStringLiteral("--build"), build});
    return built.exitCode == 0 ? QString() : built.text;
}

// Copies a package into the cache folder, touching only files whose bytes changed, so the
// cached CMake builds do not rebuild what did not change.
void syncFolder(const QString& from, const QString& to)
{
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = QDir(to).filePath(QDir(from).relativeFilePath(source));
        QFile in(source), existing(target);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray data = in.readAll();
        if (existing.open(QIODevice::ReadOnly) && existing.readAll() == data) continue;
        existing.close();
        QDir().mkpath(QFileInfo(target).absolutePath());
        QFile out(target);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(data);
    }
}

// Exports the project under tests/data named `name` and syncs the package into the cache folder
// of that name: the package folder there, or "" with `error` set.
QString exportIntoCache(const QString& name, std::string& error)
{
    auto opened =
        Project::open(QStringLiteral(PTOWB_TEST_DATA "/%1").arg(name).toStdString(), error);
    if (!opened) return {};
    QTemporaryDir exportDir;
    ExportOptions options;
    options.outputFolder = exportDir.path().toStdString();
    const ExportResult exported = exportPackage(*opened, options);
    error = exported.ok() ? std::string() : exported.error;
    if (exported.ok() && !checkPackage(exported.packageFolder).ok())
        error = "the exported package fails its check";
    if (!error.empty()) return {};
    const QString package =
        QStringLiteral(PTOWB_GLUE_CACHE "/") + name + QStringLiteral("/package");
    syncFolder(QString::fromStdString(exported.packageFolder), package);
    return package;
}

// Inputs and parameters that break a constraint of the op, found by mutating its first case,
// with the message the op must raise; {} when no mutation breaks one.
nlohmann::json findViolation(const OpSpec& spec)
{
    if (spec.cases.empty() || spec.constraints.empty()) return nlohmann::json::object();
    const CaseSpec& base = spec.cases[0];
    auto attempt = [&](std::vector<rules::TensorInfo> inputs,
                       std::vector<rules::Value> params) -> nlohmann::json {
        auto inferred = inferOutputs(spec, inputs, params);
        auto* error = std::get_if<InferenceError>(&inferred);
        if (!error || error->where != InferenceError::Where::Constraint) return nullptr;
        nlohmann::json v{{"message", error->message}};
        v["inputs"] = nlohmann::json::array(); // in the op's order
        for (std::size_t k = 0; k < spec.inputs.size(); ++k)
            v["inputs"].push_back(
                {{"shape", inputs[k].shape}, {"dtype", std::string(dtypeName(inputs[k].dtype))}});
        v["params"] = nlohmann::json::object();
        for (std::size_t k = 0; k < spec.params.size(); ++k)
            v["params"][spec.params[k].name] = paramValueToJson(params[k]);
        return v;
    };
    std::vector<rules::TensorInfo> inputs;
    for (const auto& in : base.inputs)
        inputs.push_back({in.shape, in.dtype});
    for (std::size_t k = 0; k < inputs.size(); ++k)
        for (std::size_t d = 0; d < inputs[k].shape.size(); ++d)
            for (std::int64_t value : {std::int64_t(0), inputs[k].shape[d] + 1, std::int64_t(1)}) {
                auto mutated = inputs;
                mutated[k].shape[d] = value;
                if (auto v = attempt(mutated, base.params); !v.is_null()) return v;
            }
    for (std::size_t k = 0; k < base.params.size(); ++k)
        for (std::int64_t value : {std::int64_t(1) << 20, std::int64_t(0), std::int64_t(-1)}) {
            if (base.params[k].type != rules::Type::Int) continue;
            auto params = base.params;
            params[k].i = value;
            if (auto v = attempt(inputs, params); !v.is_null()) return v;
        }
    return nlohmann::json::object();
}

} // namespace

class TestGlue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sample_data()
    {
        QTest::addColumn<QString>("project");
        for (const char* name : {"scale_gelu", "softmax", "matmul_bias"})
            QTest::newRow(name) << QStringLiteral(PTOWB_SOURCE_DIR "/projects/") +
                                       QString::fromLatin1(name);
        // Every parameter type, names like `torch` and `std`, and text built to break generated
        // code.
        QTest::newRow("hostile") << QStringLiteral(PTOWB_TEST_DATA "/glue_hostile");
        // A kernel that takes a dataclass config and a plain int, built by op.json's kernel
        // arguments in every backend that runs the kernel.
        QTest::newRow("config_kernel") << QStringLiteral(PTOWB_TEST_DATA "/config_kernel");
        // A kernel made inside its test (kernel.made_by), found there by every backend.
        QTest::newRow("made_kernel") << QStringLiteral(PTOWB_TEST_DATA "/made_kernel");
        // An op that reads no tensor (pypto.full): its outputs' shapes come from parameters.
        QTest::newRow("no_input") << QStringLiteral(PTOWB_TEST_DATA "/no_input_kernel");
    }

    void sample()
    {
        QFETCH(QString, project);
        const QString projectDir = project;
        std::string error;
        auto opened = Project::open(projectDir.toStdString(), error);
        QVERIFY2(opened, error.c_str());

        QTemporaryDir exportDir;
        ExportOptions options;
        options.outputFolder = exportDir.path().toStdString();
        const ExportResult exported = exportPackage(*opened, options);
        QVERIFY2(exported.ok(), exported.error.c_str());
        QVERIFY(checkPackage(exported.packageFolder).ok());

        const QString cache =
            QStringLiteral(PTOWB_GLUE_CACHE "/") + QString::fromLatin1(QTest::currentDataTag());
        const QString package = cache + QStringLiteral("/package");
        syncFolder(QString::fromStdString(exported.packageFolder), package);
        const SpecLoadResult loaded = opened->validateSaved();
        const OpSpec& spec = loaded.spec;
        const QString qualified = QString::fromStdString(spec.ns + "::" + spec.name);
        const QString library = QString::fromStdString(spec.ns + "_" + spec.name);

        // Python: import, CPU = reference, meta shapes, constraint message, trace, ONNX export.
        QTemporaryDir work;
        const QString violation = work.filePath(QStringLiteral("violation.json"));
        {
            QFile f(violation);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(findViolation(spec).dump()));
        }
        // Backend('sim') runs the kernel through ptowb's kernel worker (the hostile op's kernel is
        // a stub).
        const bool simulated =
            QString::fromLatin1(QTest::currentDataTag()) != QLatin1String("hostile");
        if (simulated)
            qputenv("PTOWB_KERNEL_WORKER", PTOWB_KERNEL_WORKER);
        else
            qunsetenv("PTOWB_KERNEL_WORKER");
        const Output python =
            run(QStringLiteral(PTOWB_PYTHON),
                {QStringLiteral(PTOWB_SOURCE_DIR "/tests/glue/check_python_glue.py"), package,
                 work.path(), violation});
        QVERIFY2(python.exitCode == 0, qPrintable(python.text));
        QVERIFY(python.text.contains(QStringLiteral(" passed, 0 failed")));
        if (!spec.constraints.empty())
            QVERIFY2(python.text.contains(
                         QStringLiteral("violated constraint raises with the op.json message")),
                     qPrintable(python.text));

        // The same checks with the newest torch, plus opcheck, torch.compile, torch.export and
        // the dynamo ONNX exporter.
        QVERIFY2(!QStringLiteral(PTOWB_NEWEST_TORCH_PYTHON).isEmpty(),
                 "configure with -DPTOWB_NEWEST_TORCH_PYTHON=$(tests/glue/newest_torch_venv.sh), "
                 "as ./setup.sh test does");
        QTemporaryDir newestWork;
        const Output newest =
            run(QStringLiteral(PTOWB_NEWEST_TORCH_PYTHON),
                {QStringLiteral(PTOWB_SOURCE_DIR "/tests/glue/check_python_glue.py"), package,
                 newestWork.path(), violation});
        QVERIFY2(newest.exitCode == 0 && newest.text.contains(QStringLiteral(" passed, 0 failed")),
                 qPrintable(newest.text));
        if (simulated)
            for (const Output* o : {&python, &newest})
                QVERIFY2(o->text.contains(QStringLiteral(
                             "PASS sim backend (the kernel in the simulator) equals the golden")),
                         qPrintable(o->text));
        for (const char* expected : {"PASS torch.library.opcheck passes every test",
                                     "PASS torch.compile(fullgraph=True, dynamic=True)",
                                     "PASS the exported program equals the golden",
                                     "PASS dynamo=True: ptowb_record is a string attribute",
                                     "PASS dynamo=False: ptowb_record is a string attribute"})
            QVERIFY2(newest.text.contains(QLatin1String(expected)), qPrintable(newest.text));

        // ONNX Runtime runs Linear -> op -> Softmax with a dynamic batch, the op from the package.
        const Output onnxruntime =
            run(QStringLiteral(PTOWB_NEWEST_TORCH_PYTHON),
                {QStringLiteral(PTOWB_SOURCE_DIR "/tests/glue/check_onnxruntime.py"), package,
                 newestWork.path()});
        QVERIFY2(onnxruntime.exitCode == 0 &&
                     onnxruntime.text.contains(QStringLiteral(" passed, 0 failed")),
                 qPrintable(onnxruntime.text));
        // An op that reads no tensor has nothing dynamic: the model is static.
        const QString batchRun =
            spec.inputs.empty() ? QStringLiteral(", static: ONNX Runtime equals torch eager")
                                : QStringLiteral(": ONNX Runtime equals torch eager at batch 1");
        QVERIFY2(onnxruntime.text.contains(QStringLiteral("PASS dynamo=True") + batchRun) &&
                     onnxruntime.text.contains(QStringLiteral("PASS dynamo=False") + batchRun),
                 qPrintable(onnxruntime.text));

        // C++: build the op library, run every case, load the model Python saved.
        const QString torchBuild = cache + QStringLiteral("/torch-build");
        // Against Debian's libtorch, with ptowb's simulator for PTOWB_BACKEND=sim.
        QString failure =
            buildPackageProject(package + QStringLiteral("/torch"), torchBuild,
                                {QStringLiteral("-DPTOWB_DIR=" PTOWB_CMAKE_PACKAGE_DIR)});
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const Output torchCheck =
            run(QStringLiteral(PTOWB_TORCH_OP_CHECK),
                {torchBuild + QStringLiteral("/lib") + library + QStringLiteral(".so"), package,
                 qualified, work.filePath(QStringLiteral("model.pt"))});
        QVERIFY2(torchCheck.exitCode == 0 && torchCheck.text.contains(QStringLiteral(
                                                 "TorchScript model saved by Python runs in C++")),
                 qPrintable(torchCheck.text));
        // The package alone (no ptowb) against Debian's libtorch, once: the hostile op, whose
        // names and texts stress the sources most.
        if (QString::fromLatin1(QTest::currentDataTag()) == QLatin1String("hostile")) {
            const QString plainBuild = cache + QStringLiteral("/torch-build-plain");
            failure = buildPackageProject(package + QStringLiteral("/torch"), plainBuild);
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
            const Output plainCheck =
                run(QStringLiteral(PTOWB_TORCH_OP_CHECK),
                    {plainBuild + QStringLiteral("/lib") + library + QStringLiteral(".so"), package,
                     qualified, work.filePath(QStringLiteral("model.pt"))});
            QVERIFY2(plainCheck.exitCode == 0 &&
                         plainCheck.text.contains(
                             QStringLiteral("TorchScript model saved by Python runs in C++")),
                     qPrintable(plainCheck.text));
        }
        // The same sources from the package alone against the newest torch's own libtorch.
        const Output prefix =
            run(QStringLiteral(PTOWB_NEWEST_TORCH_PYTHON),
                {QStringLiteral("-c"),
                 QStringLiteral("import os, torch; print(os.path.dirname(torch.__file__))")});
        QVERIFY2(prefix.exitCode == 0, qPrintable(prefix.text));
        const QString newestTorchBuild = cache + QStringLiteral("/torch-build-newest");
        failure =
            buildPackageProject(package + QStringLiteral("/torch"), newestTorchBuild,
                                {QStringLiteral("-DCMAKE_PREFIX_PATH=") + prefix.text.trimmed()});
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        // Either load order works with each torch and the library built against its libtorch.
        const std::pair<QString, QString> torches[] = {
            {QStringLiteral(PTOWB_PYTHON), torchBuild},
            {QStringLiteral(PTOWB_NEWEST_TORCH_PYTHON), newestTorchBuild}};
        for (const auto& [python, build] : torches)
            for (const char* order : {"module-first", "library-first", "library-only"}) {
                const Output loaded =
                    run(python,
                        {QStringLiteral(PTOWB_SOURCE_DIR "/tests/glue/check_load_order.py"),
                         package, build + QStringLiteral("/lib") + library + QStringLiteral(".so"),
                         QLatin1String(order)});
                QVERIFY2(loaded.exitCode == 0 && loaded.text.contains(QStringLiteral("PASS ")),
                         qPrintable(loaded.text));
                // torch.compile with the library alone: the newest torch has it, 1.13 does not.
                if (build == newestTorchBuild &&
                    QLatin1String(order) == QLatin1String("library-only"))
                    QVERIFY2(loaded.text.contains(QStringLiteral(
                                 "PASS library-only: torch.compile(fullgraph=True, dynamic=True)")),
                             qPrintable(loaded.text));
            }
        if (QString::fromLatin1(QTest::currentDataTag()) !=
            QLatin1String("hostile")) { // its kernel is a stub
            // PTOWB_BACKEND=sim: the same library and model run the real kernel file in the
            // simulator.
            const Output simCheck =
                run(QStringLiteral(PTOWB_TORCH_OP_CHECK),
                    {torchBuild + QStringLiteral("/lib") + library + QStringLiteral(".so"), package,
                     qualified, work.filePath(QStringLiteral("model.pt"))},
                    600000, QStringLiteral("sim"));
            QVERIFY2(simCheck.exitCode == 0 &&
                         simCheck.text.contains(QStringLiteral("PASS sim cpu kernel matches")),
                     qPrintable(simCheck.text));
        }

        // ONNX: ptowb-cli onnx-infer with the workbench's schema, then the generated schema
        // library.
        const QString model = work.filePath(QStringLiteral("model.onnx"));
        const QString inferredModel = work.filePath(QStringLiteral("inferred.onnx"));
        const Output infer = run(QStringLiteral(PTOWB_CLI),
                                 {QStringLiteral("onnx-infer"), model, QStringLiteral("--package"),
                                  package, QStringLiteral("--out"), inferredModel});
        QVERIFY2(infer.exitCode == 0, qPrintable(infer.text));
        QVERIFY2(!infer.text.contains(QLatin1Char('?')),
                 qPrintable(infer.text)); // every value after the op is known
        QVERIFY(QFileInfo(inferredModel).size() > 0);
        // A package of another op than the model's node is an error, not unknown shapes.
        {
            QTemporaryDir other;
            QFile source(package + QStringLiteral("/op.json"));
            QVERIFY(source.open(QIODevice::ReadOnly));
            QByteArray text = source.readAll();
            const QByteArray opType = QByteArray::fromStdString("\"" + spec.opType + "\"");
            QVERIFY(text.contains(opType));
            text.replace(opType, "\"NoSuchOp\"");
            QFile copy(other.filePath(QStringLiteral("op.json")));
            QVERIFY(copy.open(QIODevice::WriteOnly));
            copy.write(text);
            copy.close();
            const Output mismatched =
                run(QStringLiteral(PTOWB_CLI), {QStringLiteral("onnx-infer"), model,
                                                QStringLiteral("--package"), other.path()});
            QVERIFY2(mismatched.exitCode == 1 &&
                         mismatched.text.contains(QStringLiteral("the model has no node ") +
                                                  QString::fromStdString(spec.ns) +
                                                  QStringLiteral("::NoSuchOp")),
                     qPrintable(mismatched.text));
        }
        const auto cases = [&] {
            QFile f(package + QStringLiteral("/tests/cases.json"));
            f.open(QIODevice::ReadOnly);
            return nlohmann::json::parse(f.readAll().toStdString())["cases"];
        }();
        for (const auto& [name, entry] : cases[0]["outputs"].items()) {
            QString dims;
            for (const auto& d : entry["shape"])
                dims += (dims.isEmpty() ? QString() : QStringLiteral(",")) +
                        QString::number(d.get<qint64>());
            const QString expected =
                QStringLiteral(": %1[%2]")
                    .arg(QString::fromStdString(entry["dtype"].get<std::string>()), dims);
            QVERIFY2(infer.text.contains(expected),
                     qPrintable(infer.text + QStringLiteral("\nexpected ") + expected));
        }

        const QString onnxBuild = cache + QStringLiteral("/onnx-build");
        failure = buildPackageProject(package + QStringLiteral("/onnx"), onnxBuild,
                                      {QStringLiteral("-DPTOWB_DIR=" PTOWB_CMAKE_PACKAGE_DIR)});
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const Output generated =
            run(QStringLiteral(PTOWB_ONNX_SCHEMA_CHECK),
                {onnxBuild + QStringLiteral("/lib") + library + QStringLiteral("_onnx.so"),
                 library + QStringLiteral("_register_onnx_schema"), model});
        QVERIFY2(generated.exitCode == 0, qPrintable(generated.text));
        QCOMPARE(generated.text,
                 infer.text); // emitted C++ rules infer exactly what the evaluator infers

        // The model with a dynamic batch named "batch": both keep the name through the rules
        // and never lose a rank. (An op that reads no tensor has no input to make dynamic.)
        if (!spec.inputs.empty()) {
            const QString dynamicModel = work.filePath(QStringLiteral("model-dynamic.onnx"));
            const Output dynamicInfer =
                run(QStringLiteral(PTOWB_CLI), {QStringLiteral("onnx-infer"), dynamicModel,
                                                QStringLiteral("--package"), package});
            QVERIFY2(dynamicInfer.exitCode == 0 &&
                         dynamicInfer.text.contains(QStringLiteral("[batch,")) &&
                         !dynamicInfer.text.contains(QStringLiteral("[?]")),
                     qPrintable(dynamicInfer.text));
            const Output dynamicGenerated =
                run(QStringLiteral(PTOWB_ONNX_SCHEMA_CHECK),
                    {onnxBuild + QStringLiteral("/lib") + library + QStringLiteral("_onnx.so"),
                     library + QStringLiteral("_register_onnx_schema"), dynamicModel});
            QVERIFY2(dynamicGenerated.exitCode == 0, qPrintable(dynamicGenerated.text));
            QCOMPARE(dynamicGenerated.text, dynamicInfer.text);
        }

        const Output inspect =
            run(QStringLiteral(PTOWB_CLI),
                {QStringLiteral("inspect"), model, QStringLiteral("--package"), package});
        QVERIFY2(inspect.exitCode == 0 &&
                     inspect.text.contains(QStringLiteral("matches the package")),
                 qPrintable(inspect.text));
    }

    // An op whose kernel writes an input in place: torch declares it mutated, every backend of
    // the Python module and of the C++ library writes it, and ONNX export refuses the op. Also
    // one whose only result is that input: it returns None (schema `-> ()`).
    void mutatedInput_data()
    {
        QTest::addColumn<QString>("project");
        QTest::addColumn<QString>("library");
        QTest::newRow("with an output") << "mutated_kernel"
                                        << "libpto_accumulate.so";
        QTest::newRow("no output") << "inplace_kernel"
                                   << "libpto_add_into.so";
    }

    void mutatedInput()
    {
        QFETCH(QString, project);
        QFETCH(QString, library);
        std::string error;
        const QString package = exportIntoCache(project, error);
        QVERIFY2(error.empty(), error.c_str());
        const QString cache = QFileInfo(package).path();

        qputenv("PTOWB_KERNEL_WORKER", PTOWB_KERNEL_WORKER);
        const QString script = QStringLiteral(PTOWB_SOURCE_DIR "/tests/glue/check_mutated_glue.py");
        for (const char* python : {PTOWB_PYTHON, PTOWB_NEWEST_TORCH_PYTHON}) {
            const Output checked = run(QString::fromUtf8(python), {script, package});
            QVERIFY2(checked.exitCode == 0 &&
                         checked.text.contains(QStringLiteral(" passed, 0 failed")) &&
                         checked.text.contains(
                             QStringLiteral("PASS sim rows_4: the mutated input holds its golden")),
                     qPrintable(checked.text));
        }

        const QString torchBuild = cache + QStringLiteral("/torch-build");
        const QString failure =
            buildPackageProject(package + QStringLiteral("/torch"), torchBuild,
                                {QStringLiteral("-DPTOWB_DIR=" PTOWB_CMAKE_PACKAGE_DIR)});
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const Output loaded =
            run(QStringLiteral(PTOWB_PYTHON), {script, package, QStringLiteral("--library"),
                                               torchBuild + QStringLiteral("/") + library});
        QVERIFY2(loaded.exitCode == 0 &&
                     loaded.text.contains(QStringLiteral(" passed, 0 failed")) &&
                     loaded.text.contains(
                         QStringLiteral("PASS sim fp16: the mutated input holds its golden")),
                 qPrintable(loaded.text));
    }

    // The library's sim backend runs a kernel that imports modules of its project (package
    // imports, relative ones) from any working folder: the modules are built into it.
    void kernelModulesInTheLibrary()
    {
        std::string error;
        const QString package = exportIntoCache(QStringLiteral("module_kernel"), error);
        QVERIFY2(error.empty(), error.c_str());
        const QString torchBuild = QFileInfo(package).path() + QStringLiteral("/torch-build");
        const QString failure =
            buildPackageProject(package + QStringLiteral("/torch"), torchBuild,
                                {QStringLiteral("-DPTOWB_DIR=" PTOWB_CMAKE_PACKAGE_DIR)});
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        qputenv("PTOWB_KERNEL_WORKER", PTOWB_KERNEL_WORKER);
        const Output simCheck = run(QStringLiteral(PTOWB_TORCH_OP_CHECK),
                                    {torchBuild + QStringLiteral("/libpto_module_scale.so"),
                                     package, QStringLiteral("pto::module_scale")},
                                    600000, QStringLiteral("sim"));
        QVERIFY2(simCheck.exitCode == 0 &&
                     simCheck.text.contains(QStringLiteral(
                         "PASS sim cpu kernel matches the reference golden: rows_16")) &&
                     simCheck.text.contains(QStringLiteral(" 0 failed")),
                 qPrintable(simCheck.text));
    }
};

QTEST_GUILESS_MAIN(TestGlue)
#include "tst_glue.moc"
