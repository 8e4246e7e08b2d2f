// The modules a kernel file imports from its project (what export puts beside it), found from
// the text alone: relative and absolute imports, packages, cycles, and what stays out.
#include "kernel/kernel_modules.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ptowb;

namespace {

void write(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write(text);
}

QStringList modules(const QString& project, const QString& kernel)
{
    QStringList out;
    for (const std::string& m : kernel::kernelModules(project.toStdString(), kernel.toStdString()))
        out << QString::fromStdString(m);
    return out;
}

} // namespace

class TestKernelModules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void importsOfEveryForm()
    {
        QTemporaryDir p;
        const QString root = p.path();
        write(root + "/kernel.py", "import os, numpy\n"
                                   "import tiles.rows as rows\n"
                                   "from shapes import *\n"
                                   "from ns.deep import leaf\n"
                                   "def make():\n"
                                   "    from helpers import late\n"
                                   "    return late\n"
                                   "try:\n"
                                   "    import optional_mod\n"
                                   "except ImportError:\n"
                                   "    pass\n");
        write(root + "/tiles/__init__.py", "");
        write(root + "/tiles/rows.py", "ROWS = 8\n");
        write(root + "/tiles/cols.py", "COLS = 8\n"); // never imported
        write(root + "/shapes/__init__.py", "from .dims import *\n");
        write(root + "/shapes/dims.py", "D = 1\n");
        write(root + "/ns/deep/leaf.py", "X = 1\n"); // namespace packages: no __init__.py
        write(root + "/helpers.py", "late = 1\n");
        write(root + "/optional_mod.py", "\n");
        write(root + "/reference.py", "def ref(x):\n    return x\n");
        QCOMPARE(
            modules(root, "kernel.py"),
            (QStringList{"helpers.py", "ns/deep/leaf.py", "optional_mod.py", "shapes/__init__.py",
                         "shapes/dims.py", "tiles/__init__.py", "tiles/rows.py"}));
    }

    void relativeImportsStayInTheirPackage()
    {
        QTemporaryDir p;
        const QString root = p.path();
        write(root + "/pkg/__init__.py", "");
        write(root + "/pkg/sub/__init__.py", "");
        write(root + "/pkg/sub/kernel.py",
              "from . import sibling\nfrom ..up import U\nfrom ...beyond import B\n");
        write(root + "/pkg/sub/sibling.py", "from .kernel import nothing\n"); // a cycle
        write(root + "/pkg/up.py", "U = 1\n");
        write(root + "/beyond.py", "B = 1\n"); // above the top package: Python refuses it
        QCOMPARE(modules(root, "pkg/sub/kernel.py"),
                 (QStringList{"pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/sibling.py",
                              "pkg/up.py"}));
        // A kernel at the top of its import path has no package: `from . import x` finds nothing.
        write(root + "/top.py", "from . import beyond\n");
        QCOMPARE(modules(root, "top.py"), QStringList{});
    }

    void theKernelsFolderComesFirst()
    {
        QTemporaryDir p;
        const QString root = p.path();
        write(root + "/ops/__init__.py", "");
        write(root + "/ops/kernel.py", "import util\nimport common\n");
        write(root + "/ops/util.py", "\n");
        write(root + "/util.py", "\n"); // shadowed by ops/util.py
        write(root + "/common.py", "\n");
        // ops/__init__.py too: it runs first, and it makes the project's top the import path.
        QCOMPARE(modules(root, "ops/kernel.py"),
                 (QStringList{"common.py", "ops/__init__.py", "ops/util.py"}));
    }

    void whatCannotBeReadIsLeftOut()
    {
        QTemporaryDir p, outside;
        const QString root = p.path();
        write(outside.path() + "/secret.py", "S = 1\n");
        QVERIFY(QFile::link(outside.path() + "/secret.py", root + "/secret.py"));
        write(root + "/kernel.py", "import secret\nimport broken\nimport big\nimport missing\n");
        write(root + "/broken.py", "x = = 1\nimport after\n");
        write(root + "/after.py", "\n");
        write(root + "/big.py", QByteArray(int(kernel::kMaxModuleBytes) + 1, '#'));
        // The broken module travels (its error is its own), and the statements after the broken
        // one are still read.
        QCOMPARE(modules(root, "kernel.py"), (QStringList{"after.py", "broken.py"}));
        // Nothing at all: a kernel file that does not exist, an empty project.
        QCOMPARE(modules(root, "absent.py"), QStringList{});
        QCOMPARE(modules(root + "/nowhere", "kernel.py"), QStringList{});
    }
};

QTEST_GUILESS_MAIN(TestKernelModules)
#include "tst_kernel_modules.moc"
