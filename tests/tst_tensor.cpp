// Tensors, half-precision conversion, .npy files (good and malformed), case inputs.
#include "spec/op_spec_loader.h"
#include "tensor/case_inputs.h"
#include "tensor/half.h"
#include "tensor/npy.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>

using namespace ptowb;

namespace {

std::string bytesOf(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

// A v1.0 file with the given header dict and payload.
std::string npyFile(const std::string& dict, const std::string& payload, int version = 1)
{
    std::string header = dict;
    const std::size_t prefix = version == 1 ? 10 : 12;
    while ((prefix + header.size() + 1) % 64)
        header += ' ';
    header += '\n';
    std::string file = "\x93NUMPY";
    file += char(version);
    file += char(0);
    const std::size_t n = header.size();
    file += char(n & 0xff);
    file += char((n >> 8) & 0xff);
    if (version > 1) {
        file += char((n >> 16) & 0xff);
        file += char((n >> 24) & 0xff);
    }
    return file + header + payload;
}

QString readError(const std::string& bytes)
{
    auto r = parseNpy({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()});
    return std::holds_alternative<std::string>(r) ? QString::fromStdString(std::get<std::string>(r))
                                                  : QString();
}

const char* kDebianPython = "/usr/bin/python3";

} // namespace

class TestTensor : public QObject
{
    Q_OBJECT

private slots:
    void halfConversions()
    {
        // Every fp16 bit pattern survives fp16 -> float -> fp16 (NaNs stay NaN).
        for (std::uint32_t b = 0; b < 65536; ++b) {
            const float f = half::fp16ToFloat(std::uint16_t(b));
            const std::uint16_t back = half::floatToFp16(f);
            if (std::isnan(f))
                QVERIFY(std::isnan(half::fp16ToFloat(back)));
            else
                QCOMPARE(back, std::uint16_t(b));
        }
        QCOMPARE(half::fp16ToFloat(0x3c00), 1.0f);
        QCOMPARE(half::fp16ToFloat(0x0001), std::ldexp(1.0f, -24));
        QCOMPARE(half::floatToFp16(65504.0f), std::uint16_t(0x7bff));
        QCOMPARE(half::floatToFp16(65520.0f), std::uint16_t(0x7c00)); // rounds to infinity
        QCOMPARE(half::floatToFp16(1.0f + std::ldexp(1.0f, -11)),
                 std::uint16_t(0x3c00)); // tie to even
        QCOMPARE(half::floatToFp16(1.0f + 3 * std::ldexp(1.0f, -11)), std::uint16_t(0x3c02));
        QCOMPARE(half::floatToBf16(1.0f), std::uint16_t(0x3f80));
        QCOMPARE(half::bf16ToFloat(0x3f80), 1.0f);
        QCOMPARE(half::floatToBf16(1.0f + std::ldexp(1.0f, -8)),
                 std::uint16_t(0x3f80)); // tie to even
        QVERIFY(std::isnan(half::bf16ToFloat(half::floatToBf16(std::nanf("")))));
    }

    void roundTripEveryDType()
    {
        QTemporaryDir dir;
        for (const auto& info : allDTypes()) {
            Tensor t(info.dtype, {3, 5});
            for (std::int64_t k = 0; k < t.numel(); ++k)
                t.set(k, info.kind == DTypeKind::Bool
                             ? k % 2
                             : double(k) - 4.5 * (info.kind == DTypeKind::Floating));
            const std::string path =
                dir.filePath(QString::fromLatin1(info.name.data(), int(info.name.size())) + ".npy")
                    .toStdString();
            QCOMPARE(writeNpy(path, t), std::string());
            auto read = readNpy(path);
            QVERIFY2(std::holds_alternative<Tensor>(read), std::holds_alternative<std::string>(read)
                                                               ? std::get<std::string>(read).c_str()
                                                               : "");
            const Tensor& back = std::get<Tensor>(read);
            QCOMPARE(back.dtype(), info.dtype);
            QCOMPARE(back.shape(), t.shape());
            QCOMPARE(std::memcmp(back.bytes(), t.bytes(), t.byteSize()), 0);
            QCOMPARE(bytesOf(path).size() % 64, t.byteSize() % 64); // header padded to 64 bytes
        }
        // Scalars and empty tensors.
        for (const std::vector<std::int64_t>& shape :
             {std::vector<std::int64_t>{}, std::vector<std::int64_t>{0, 4},
              std::vector<std::int64_t>{7}}) {
            const std::string path = dir.filePath("s.npy").toStdString();
            QCOMPARE(writeNpy(path, Tensor(DType::Float32, shape)), std::string());
            QCOMPARE(std::get<Tensor>(readNpy(path)).shape(), shape);
        }
    }

    void readsWhatNumPyWrites()
    {
        QTemporaryDir dir;
        const QString script = QStringLiteral(
            "import numpy as np, sys\n"
            "d = sys.argv[1]\n"
            "for t in ['f2','f4','f8','i1','i2','i4','i8','u1','?']:\n"
            "    np.save(d + '/' + t + '.npy', (np.arange(24).reshape(2, 3, 4) % 7).astype(t))\n"
            "np.save(d + '/v2.npy', np.zeros((2, 2), 'f4'), allow_pickle=False)\n"
            "from numpy.lib import format as fmt\n"
            "with open(d + '/v3.npy', 'wb') as f: fmt.write_array(f, np.ones(5, 'f4'), version=(3, "
            "0))\n"
            "with open(d + '/v2b.npy', 'wb') as f: fmt.write_array(f, np.ones(5, 'f8'), "
            "version=(2, 0))\n"
            "np.save(d + '/big_endian.npy', np.ones(3, '>f4'))\n"
            "np.save(d + '/fortran.npy', np.asfortranarray(np.ones((2, 3), 'f4')))\n"
            "np.save(d + '/object.npy', np.array([1, 'a'], dtype=object), allow_pickle=True)\n"
            "np.save(d + '/complex.npy', np.ones(3, 'c8'))\n");
        QProcess p;
        p.start(QString::fromLatin1(kDebianPython), {"-c", script, dir.path()});
        // Debian's python3 and numpy are what ./setup.sh test installs: their absence fails.
        QVERIFY2(p.waitForFinished(60000), qPrintable(p.errorString()));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 qPrintable("numpy could not write the files: " + p.readAllStandardError()));
        for (const char* t : {"f2", "f4", "f8", "i1", "i2", "i4", "i8", "u1", "?"}) {
            auto r = readNpy(dir.filePath(QString::fromLatin1(t) + ".npy").toStdString());
            QVERIFY2(std::holds_alternative<Tensor>(r), t);
            const Tensor& x = std::get<Tensor>(r);
            QCOMPARE(x.shape(), (std::vector<std::int64_t>{2, 3, 4}));
            for (std::int64_t k = 0; k < 24; ++k)
                QCOMPARE(x.at(k), std::string(t) == "?" ? double(k % 7 != 0) : double(k % 7));
        }
        QVERIFY(std::holds_alternative<Tensor>(readNpy(dir.filePath("v3.npy").toStdString())));
        QCOMPARE(std::get<Tensor>(readNpy(dir.filePath("v2b.npy").toStdString())).at(4), 1.0);
        auto error = [&](const char* f) {
            return QString::fromStdString(
                std::get<std::string>(readNpy(dir.filePath(f).toStdString())));
        };
        QVERIFY(error("big_endian.npy").contains("big-endian"));
        QVERIFY(error("fortran.npy").contains("Fortran"));
        QVERIFY(error("object.npy").contains("object arrays"));
        QVERIFY(error("complex.npy").contains("unsupported dtype"));
    }

    void malformedFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
        const std::string payload(16, '\0');
        auto row = [](const char* name, const std::string& bytes, const char* expected) {
            QTest::newRow(name) << QByteArray(bytes.data(), int(bytes.size()))
                                << QString::fromLatin1(expected);
        };
        row("empty", "", "bad magic");
        row("bad magic", "\x93NUMPZ\x01\x00\x00\x00", "bad magic");
        row("version 4", npyFile(good, payload).replace(6, 1, "\x04"),
            "unsupported .npy version 4.0");
        row("truncated data", npyFile(good, payload.substr(0, 9)), "truncated data");
        row("extra data", npyFile(good, payload + "xx"), "2 bytes more");
        row("header longer than file", std::string("\x93NUMPY\x01\x00\xff\x7f", 10) + "{'descr'",
            "file ends before");
        row("100 MB header", std::string("\x93NUMPY\x02\x00\x00\x00\x40\x06", 12) + "{}",
            "at most 1048576");
        row("no shape", npyFile("{'descr': '<f4', 'fortran_order': False, }", ""), "lacks");
        row("shape not a tuple",
            npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': [2], }", payload),
            "must be a tuple");
        row("negative dim",
            npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", payload),
            "non-negative");
        row("huge shape",
            npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }",
                    payload),
            "too large");
        row("dim overflow",
            npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                    payload),
            "64 bits");
        row("structured",
            npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", payload),
            "structured");
        row("unknown key",
            npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 1}", payload),
            "unexpected header key");
        row("garbage header", npyFile("not a dict at all", payload), "not a dict");
        row("fortran flag junk",
            npyFile("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2, 2), }", payload),
            "True or False");
    }

    void malformedFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const QString error = readError(bytes.toStdString());
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void fileErrors()
    {
        QVERIFY(std::get<std::string>(readNpy("/nonexistent.npy")).find("cannot open") !=
                std::string::npos);
        QVERIFY(std::get<std::string>(readNpy("/tmp")).find("not a regular file") !=
                std::string::npos);
        QTemporaryDir dir;
        const std::string empty = dir.filePath("empty.npy").toStdString();
        writeBytes(empty, "");
        QVERIFY(std::get<std::string>(readNpy(empty)).find("empty file") != std::string::npos);
        QVERIFY(!writeNpy("/nonexistent/dir/x.npy", Tensor(DType::Float32, {1})).empty());
    }

    void mappedTensorsCopyOnWrite()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.npy").toStdString();
        Tensor t(DType::Float32, {4});
        t.set(0, 1.5);
        QCOMPARE(writeNpy(path, t), std::string());
        Tensor mapped = std::get<Tensor>(readNpy(path));
        const std::byte* before = mapped.bytes();
        mapped.set(0, 7.0); // must not write into the file
        QVERIFY(mapped.bytes() != before);
        QCOMPARE(std::get<Tensor>(readNpy(path)).at(0), 1.5);
        QCOMPARE(mapped.at(0), 7.0);
    }

    void caseInputsAreReproducible()
    {
        const SpecLoadResult r = loadOpSpecFile(PTOWB_SOURCE_DIR "/projects/matmul_bias/op.json");
        const std::string dir = PTOWB_SOURCE_DIR "/projects/matmul_bias";
        auto first = std::get<std::vector<Tensor>>(makeCaseInputs(r.spec, r.spec.cases[0], dir));
        auto second = std::get<std::vector<Tensor>>(makeCaseInputs(r.spec, r.spec.cases[0], dir));
        QCOMPARE(first.size(), std::size_t(3));
        for (std::size_t k = 0; k < first.size(); ++k)
            QCOMPARE(std::memcmp(first[k].bytes(), second[k].bytes(), first[k].byteSize()), 0);
        // a and b use the same fill but get different values (seeded by input name).
        QVERIFY(std::memcmp(first[0].bytes(), first[1].bytes(), first[0].byteSize()) != 0);
        OpSpec reseeded = r.spec;
        reseeded.seed = 1;
        auto third =
            std::get<std::vector<Tensor>>(makeCaseInputs(reseeded, reseeded.cases[0], dir));
        QVERIFY(std::memcmp(first[0].bytes(), third[0].bytes(), first[0].byteSize()) != 0);
        // The trans_b case fills bias with zeros.
        auto zeros = std::get<std::vector<Tensor>>(makeCaseInputs(r.spec, r.spec.cases[1], dir));
        for (std::int64_t k = 0; k < zeros[2].numel(); ++k)
            QCOMPARE(zeros[2].at(k), 0.0);
    }

    void fillDistributions()
    {
        auto stats = [](const Tensor& t) {
            double sum = 0, sq = 0, lo = HUGE_VAL, hi = -HUGE_VAL;
            for (std::int64_t k = 0; k < t.numel(); ++k) {
                const double v = t.at(k);
                sum += v;
                sq += v * v;
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            const double mean = sum / double(t.numel());
            return std::array<double, 4>{mean, std::sqrt(sq / double(t.numel()) - mean * mean), lo,
                                         hi};
        };
        FillSpec normal{FillSpec::Kind::Normal, 2.0, 3.0, {}};
        auto n = stats(fillTensor(normal, DType::Float32, {100000}, 7));
        QVERIFY(std::fabs(n[0] - 2.0) < 0.05 && std::fabs(n[1] - 3.0) < 0.05);
        FillSpec uniform{FillSpec::Kind::Uniform, -1.0, 4.0, {}};
        auto u = stats(fillTensor(uniform, DType::Float16, {100000}, 7));
        QVERIFY(u[2] >= -1.0 && u[3] <= 4.0 && std::fabs(u[0] - 1.5) < 0.05);
        FillSpec randint{FillSpec::Kind::RandInt, -3, 5, {}};
        const Tensor ints = fillTensor(randint, DType::Int32, {10000}, 7);
        auto ri = stats(ints);
        QCOMPARE(ri[2], -3.0);
        QCOMPARE(ri[3], 4.0);
        const Tensor range =
            fillTensor({FillSpec::Kind::Arange, 0, 1, {}}, DType::BFloat16, {2, 3}, 0);
        for (std::int64_t k = 0; k < 6; ++k)
            QCOMPARE(range.at(k), double(k));
        const Tensor ones = fillTensor({FillSpec::Kind::Ones, 0, 1, {}}, DType::Bool, {3}, 0);
        QCOMPARE(ones.at(2), 1.0);
    }

    void integerStoresSaturate()
    {
        Tensor t(DType::Int8, {5});
        t.set(0, 1000.0);
        t.set(1, -1000.0);
        t.set(2, 2.6);
        t.set(3, std::nan(""));
        t.set(4, -2.5); // nearest, ties to even
        QCOMPARE(t.at(0), 127.0);
        QCOMPARE(t.at(1), -128.0);
        QCOMPARE(t.at(2), 3.0);
        QCOMPARE(t.at(3), 0.0);
        QCOMPARE(t.at(4), -2.0);
        Tensor big(DType::Int64, {1});
        big.set(0, 1e30);
        QCOMPARE(big.values<std::int64_t>()[0], std::numeric_limits<std::int64_t>::max());
        const Tensor wide =
            fillTensor({FillSpec::Kind::Uniform, 0, 1000, {}}, DType::UInt8, {1000}, 3);
        for (std::int64_t k = 0; k < wide.numel(); ++k)
            QVERIFY(wide.at(k) >= 0 && wide.at(k) <= 255);
    }

    void fileFillChecksShapeAndDType()
    {
        QTemporaryDir dir;
        Tensor stored(DType::Float32, {4, 64});
        QVERIFY(QDir(dir.path()).mkpath("data"));
        QCOMPARE(writeNpy(dir.filePath("data/x.npy").toStdString(), stored), std::string());
        SpecLoadResult r = loadOpSpecFile(PTOWB_SOURCE_DIR "/projects/scale_gelu/op.json");
        CaseSpec c = r.spec.cases[0];
        c.inputs[0].fill = {FillSpec::Kind::File, 0, 0, "data/x.npy"};
        c.inputs[0].dtype = DType::Float32;
        QVERIFY(std::holds_alternative<std::vector<Tensor>>(
            makeCaseInputs(r.spec, c, dir.path().toStdString())));
        c.inputs[0].dtype = DType::Float16;
        auto mismatch = makeCaseInputs(r.spec, c, dir.path().toStdString());
        QVERIFY(std::get<std::string>(mismatch).find(
                    "holds float32[4, 64], the case says float16[4, 64]") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestTensor)
#include "tst_tensor.moc"
