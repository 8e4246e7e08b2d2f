// The reference checker's verdicts kept on disk (reference/reference_verdict_cache.h): a repeat
// validate of an unchanged reference starts no checker and answers exactly what the checker
// answered; a changed reference is checked again; a damaged or planted entry is never trusted;
// and what the bounded checker finds by crashing is found afresh every time.
#include "digest/sha256.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct CliRun
{
    int exitCode;
    bool crashed;
    QString output;
};

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) qFatal("cannot write");
}

const char* const kHead = "import torch\nfrom torch import Tensor\n\n\n"
                          "def softmax_reference(x: Tensor) -> Tensor:\n";
// Passes every text check; only compiling it (the checker) finds the error, at line 6.
const char* const kCompileError = "    return x.not_a_tensor_method(dim=-1)\n";

} // namespace

class TestReferenceVerdicts : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_project, m_cache, m_checker;

    // validate with the verdict cache and the checker of this test.
    CliRun validate()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PTOWB_CACHE"), m_cache);
        env.insert(QStringLiteral("PTOWB_REFERENCE_CHECKER"), m_checker);
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral(PTOWB_CLI), {QStringLiteral("validate"), m_project});
        if (!p.waitForFinished(120000)) p.kill();
        p.waitForFinished();
        return {p.exitCode(), p.exitStatus() != QProcess::NormalExit,
                QString::fromUtf8(p.readAll())};
    }
    void setReference(const QByteArray& body)
    {
        writeFile(m_project + "/reference.py", kHead + body);
    }
    QStringList entries() const
    {
        return QDir(m_cache + "/reference-verdicts")
            .entryList({QStringLiteral("*.json")}, QDir::Files | QDir::System);
    }
    QString entry() const { return m_cache + "/reference-verdicts/" + entries().value(0); }
    // The checker keeps its identity (path, size, modification time) but cannot start: whatever
    // validate then answers about the reference came from the cache.
    void setCheckerRunnable(bool runnable)
    {
        QFile::Permissions p = QFile::ReadOwner | QFile::WriteOwner;
        if (runnable) p |= QFile::ExeOwner;
        QVERIFY(QFile::setPermissions(m_checker, p));
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_project = m_dir.filePath(QStringLiteral("softmax"));
        m_cache = m_dir.filePath(QStringLiteral("cache"));
        QDir().mkpath(m_project);
        QDir(m_cache).removeRecursively();
        const QString sample = QStringLiteral(PTOWB_SOURCE_DIR "/projects/softmax/");
        for (const char* file : {"op.json", "kernel.py"})
            writeFile(m_project + "/" + file, readFile(sample + file));
        // A copy of the checker, so that the test can stop it from starting.
        m_checker = m_dir.filePath(QStringLiteral("ptowb-reference-check"));
        QFile::remove(m_checker);
        QVERIFY(QFile::copy(QStringLiteral(PTOWB_REFERENCE_CHECKER), m_checker));
        setCheckerRunnable(true);
    }

    void sha256KnownAnswers()
    {
        QCOMPARE(ptowb::sha256Hex(""),
                 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        QCOMPARE(ptowb::sha256Hex("abc"),
                 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        QCOMPARE(ptowb::sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        QCOMPARE(ptowb::sha256Hex(std::string(1000000, 'a')),
                 "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
        // In pieces of every size across the block boundaries: the same digest.
        const std::string text(300, 'x');
        for (std::size_t piece : {1, 7, 55, 56, 63, 64, 65, 128, 300}) {
            ptowb::Sha256 hash;
            for (std::size_t at = 0; at < text.size(); at += piece)
                hash.add(std::string_view(text).substr(at, piece));
            QCOMPARE(hash.hex(), ptowb::sha256Hex(text));
        }
        QCOMPARE(ptowb::sha256Hex(text),
                 "0d4e2ca9e9cbced7a7a5380eb29e1a3783b9b6d0db72de36a1051038e1c1fbc7");
    }

    void keptVerdictEqualsTheFreshOne()
    {
        setReference(kCompileError);
        const CliRun fresh = validate();
        QVERIFY2(!fresh.crashed && fresh.exitCode == 1, qPrintable(fresh.output));
        QVERIFY2(fresh.output.contains(QStringLiteral("reference.py:6:")),
                 qPrintable(fresh.output));
        QCOMPARE(entries().size(), 1);
        setCheckerRunnable(false);
        const CliRun kept = validate();
        QCOMPARE(kept.exitCode, fresh.exitCode);
        QCOMPARE(kept.output, fresh.output);
        // A clean reference is kept the same way.
        setCheckerRunnable(true);
        setReference("    return torch.softmax(x.to(torch.float32), dim=-1).to(x.dtype)\n");
        const CliRun clean = validate();
        QVERIFY2(clean.exitCode == 0, qPrintable(clean.output));
        setCheckerRunnable(false);
        QCOMPARE(validate().output, clean.output);
    }

    void changedReferenceIsCheckedAgain()
    {
        setReference(kCompileError);
        QCOMPARE(validate().exitCode, 1);
        setCheckerRunnable(false);
        setReference(QByteArray("\n") + kCompileError); // the same error, a line further down
        const CliRun stopped = validate();
        QVERIFY2(stopped.output.contains(QStringLiteral("[reference.engine]")),
                 qPrintable(stopped.output));
        setCheckerRunnable(true);
        const CliRun again = validate();
        QVERIFY2(again.output.contains(QStringLiteral("reference.py:7:")) &&
                     !again.output.contains(QStringLiteral("reference.py:6:")),
                 qPrintable(again.output));
    }

    // Whatever the entry holds, it is read as data and, unless it is exactly what was written
    // for this key, it is no verdict: the reference is checked again.
    void damagedEntryIsNotTrusted_data()
    {
        QTest::addColumn<QString>("damage");
        for (const char* d : {"truncated", "empty", "not-json", "claims-clean", "other-key",
                              "symlink", "huge", "directory", "deep-json"})
            QTest::newRow(d) << QString::fromLatin1(d);
    }

    void damagedEntryIsNotTrusted()
    {
        QFETCH(QString, damage);
        setReference(kCompileError);
        const CliRun fresh = validate();
        QCOMPARE(entries().size(), 1);
        const QString path = entry();
        const QByteArray text = readFile(path);
        QFile::remove(path);
        if (damage == "truncated") {
            writeFile(path, text.left(text.size() / 2));
        } else if (damage == "empty") {
            writeFile(path, {});
        } else if (damage == "not-json") {
            writeFile(path, "#!/bin/sh\nrm -rf ~\n");
        } else if (damage == "claims-clean") {
            // The answer swapped for "no diagnostics", the rest left as written.
            QByteArray forged = text;
            const qsizetype at = forged.indexOf("\"answer\"");
            const qsizetype end = forged.indexOf(",\n", at);
            QVERIFY(at >= 0 && end > at);
            forged.replace(at, end - at, "\"answer\": \"{\\\"diagnostics\\\":[]}\"");
            writeFile(path, forged);
        } else if (damage == "other-key") {
            writeFile(path, QByteArray(text).replace(QFileInfo(path).completeBaseName().toLatin1(),
                                                     QByteArray(64, 'a')));
        } else if (damage == "symlink") {
            const QString target = m_dir.filePath(QStringLiteral("elsewhere.json"));
            writeFile(target, text);
            QVERIFY(QFile::link(target, path));
        } else if (damage == "huge") {
            writeFile(path, text + QByteArray(5 << 20, ' '));
        } else if (damage == "directory") {
            QVERIFY(QDir().mkpath(path));
        } else if (damage == "deep-json") {
            writeFile(path, QByteArray(100000, '[') + QByteArray(100000, ']'));
        }
        setCheckerRunnable(false);
        const CliRun stopped = validate();
        QVERIFY2(!stopped.crashed && stopped.output.contains(QStringLiteral("[reference.engine]")),
                 qPrintable(stopped.output));
        setCheckerRunnable(true);
        const CliRun again = validate();
        QCOMPARE(again.output, fresh.output);
    }

    // What the bounded checker finds by crashing (or by running out of time) is never kept:
    // each validate finds it afresh, in a checker that may crash.
    void crashVerdictIsNotKept()
    {
        setReference("    m = (-9223372036854775807 - 1) // -1\n"
                     "    return torch.softmax(x.to(torch.float32), dim=-1).to(x.dtype) * m\n");
        const CliRun r = validate();
        QVERIFY2(!r.crashed && r.exitCode == 1 && r.output.contains("[reference.crash]"),
                 qPrintable(r.output));
        QVERIFY(entries().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestReferenceVerdicts)
#include "tst_reference_verdicts.moc"
