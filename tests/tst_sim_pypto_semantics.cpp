// PyPTO's semantics the simulator follows beyond the arithmetic: index_put_ (torch's, with PyPTO's
// constraints), scatter_update (a paged cache's), a loop as a configuration scope, the arch PyPTO
// reports without an NPU, and the submodules the package binds.
#include "sim_harness.h"

#include <QTest>
#include <regex>

using namespace ptowb;
using simtest::runSource;

// A [blockNum, 4, 1, d] cache whose row index[b][j] (block row / 4, slot row % 4) holds src[b][j].
static at::Tensor scatteredByRows(const at::Tensor& cache, const at::Tensor& index,
                                  const at::Tensor& src)
{
    auto expected = cache.clone();
    for (std::int64_t b = 0; b < index.size(0); ++b)
        for (std::int64_t j = 0; j < index.size(1); ++j) {
            const auto row = index[b][j].item<std::int64_t>();
            expected[row / 4][row % 4][0].copy_(src[b][j][0]);
        }
    return expected;
}

class TestSimPyptoSemantics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { at::manual_seed(11); }

    // Rows of x picked by two index tensors get values, overwritten or added.
    void indexPutWritesTheIndexedRows()
    {
        const auto x = at::randn({4, 3, 5});
        const auto rows = at::tensor({3, 0, 2}, at::kInt);
        const auto cols = at::tensor({1, 2, 0}, at::kInt);
        const auto values = at::randn({3, 5});
        for (const bool accumulate : {false, true}) {
            auto r = runSource("import pypto\n\ndef kernel(x, rows, cols, values, y, accumulate: "
                               "bool):\n    pypto.set_vec_tile_shapes(4, 8)\n"
                               "    t = pypto.clone(x)\n"
                               "    pypto.index_put_(t, (rows, cols), values, accumulate)\n"
                               "    y[:] = t\n",
                               {{"x", x}, {"rows", rows}, {"cols", cols}, {"values", values}},
                               {{"y", {{4, 3, 5}, at::kFloat}}}, {{"accumulate", accumulate}});
            REQUIRE_OK(r);
            const auto expected =
                x.clone().index_put_({rows.to(at::kLong), cols.to(at::kLong)}, values, accumulate);
            QVERIFY(at::allclose(r.outputs["y"], expected));
            QVERIFY(!at::allclose(r.outputs["y"], x));
        }
    }

    void indexPutErrors_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<QString>("expected");
        QTest::newRow("index outside the dim")
            << "pypto.index_put_(t, (pypto.add(rows, 4),), values)"
            << "sim.index pypto.index_put_: an index is outside 0..3 of dim 0";
        QTest::newRow("values of another shape")
            << "pypto.index_put_(t, (rows, rows), values)"
            << "sim.shape pypto.index_put_: values must be [3] (no broadcast), got [3, 5]";
        QTest::newRow("float indices")
            << "pypto.index_put_(t, (pypto.cast(rows, pypto.DT_FP32),), values)"
            << "sim.dtype pypto.index_put_: an index tensor must hold integers, got float32";
        QTest::newRow("indices not a tuple")
            << "pypto.index_put_(t, rows, values)"
            << "kernel.python TypeError: pypto.index_put_: indices is a tuple of tensors, not "
               "Tensor";
    }

    void indexPutErrors()
    {
        QFETCH(QString, call);
        QFETCH(QString, expected);
        auto r = runSource("import pypto\n\ndef kernel(x, rows, values, y):\n"
                           "    t = pypto.clone(x)\n    " +
                               call.toStdString() + "\n    y[:] = t\n",
                           {{"x", at::randn({4, 5})},
                            {"rows", at::tensor({3, 0, 2}, at::kInt)},
                            {"values", at::randn({3, 5})}},
                           {{"y", {{4, 5}, at::kFloat}}});
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.where()), QStringLiteral("5:5 ") + expected);
    }

    // scatter_update writes a paged cache: cache row index[i][j] (block index / blockSize, slot
    // index % blockSize of a [blockNum, blockSize, 1, d] cache, or the row of a 2-d one) takes
    // src row i * s + j, as the API page's formula and its onboard test say; torch's scatter
    // along dim -2 would write elsewhere.
    void scatterUpdateWritesCacheRows()
    {
        const auto cache = at::randn({3, 4, 1, 8});
        const auto index = at::tensor({5, 0, 11, 6}, at::kInt).reshape({2, 2}); // [b, s]
        const auto src = at::randn({2, 2, 1, 8});
        const auto expected = scatteredByRows(cache, index, src);
        auto r = runSource("import pypto\n\ndef kernel(cache, index, src, y):\n"
                           "    y.move(pypto.scatter_update(cache, -2, index, src))\n",
                           {{"cache", cache}, {"index", index}, {"src", src}},
                           {{"y", {{3, 4, 1, 8}, at::kFloat}}});
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["y"], expected));
        // The 2-d form: src [b * s, d] into rows of [blockNum * blockSize, d].
        auto flat = runSource(
            "import pypto\n\ndef kernel(cache, index, src, y):\n"
            "    y[:] = pypto.scatter_update(cache, -2, index, src)\n",
            {{"cache", cache.reshape({12, 8})}, {"index", index}, {"src", src.reshape({4, 8})}},
            {{"y", {{12, 8}, at::kFloat}}});
        REQUIRE_OK(flat);
        QVERIFY(at::equal(flat.outputs["y"], expected.reshape({12, 8})));
        auto outside = runSource(
            "import pypto\n\ndef kernel(cache, index, src, y):\n"
            "    y[:] = pypto.scatter_update(cache, -2, pypto.add(index, "
            "1), src)\n",
            {{"cache", cache.reshape({12, 8})}, {"index", index}, {"src", src.reshape({4, 8})}},
            {{"y", {{12, 8}, at::kFloat}}});
        QVERIFY(!outside.ok());
        QCOMPARE(QString::fromStdString(outside.where()),
                 QStringLiteral("4:12 sim.index pypto.scatter_update: an index is outside 0..11, "
                                "the rows of input [12, 8]"));
    }

    // scatter_update is in place (its API page: it returns the updated input): a kernel that
    // scatters each tile's rows into the input cache and copies the cache out after each tile
    // (deepseek_v32's mla_prolog: `kv_cache_out[:] = pypto.scatter_update(kv_cache, ...)` in
    // its token loop) ends with every tile's rows, not the last tile's alone. A view of a larger
    // tensor, whose rows are not contiguous, is written through to that tensor.
    void scatterUpdateWritesItsInput()
    {
        const auto cache = at::randn({3, 4, 1, 8});
        const auto index = at::tensor({5, 0, 11, 6}, at::kInt).reshape({2, 2});
        const auto src = at::randn({2, 2, 1, 8});
        const auto expected = scatteredByRows(cache, index, src);
        auto r = runSource("import pypto\n\ndef kernel(cache, index, src, y, z):\n"
                           "    for k in range(2):\n"
                           "        rows = pypto.view(index, [1, 2], [k, 0])\n"
                           "        tile = pypto.view(src, [1, 2, 1, 8], [k, 0, 0, 0])\n"
                           "        y[:] = pypto.scatter_update(cache, -2, rows, tile)\n"
                           "    z[:] = cache\n",
                           {{"cache", cache}, {"index", index}, {"src", src}},
                           {{"y", {{3, 4, 1, 8}, at::kFloat}}, {"z", {{3, 4, 1, 8}, at::kFloat}}});
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["y"], expected));
        QVERIFY(at::equal(r.outputs["z"], expected));

        const auto wide = at::randn({12, 16});
        auto viewed = runSource("import pypto\n\ndef kernel(wide, index, src, y):\n"
                                "    right = pypto.view(wide, [12, 8], [0, 8])\n"
                                "    pypto.scatter_update(right, -2, index, src)\n"
                                "    y[:] = wide\n",
                                {{"wide", wide}, {"index", index}, {"src", src.reshape({4, 8})}},
                                {{"y", {{12, 16}, at::kFloat}}});
        REQUIRE_OK(viewed);
        auto expectedWide = wide.clone();
        auto right = expectedWide.narrow(1, 8, 8);
        for (int k = 0; k < 4; ++k)
            right[index.flatten()[k].item<std::int64_t>()].copy_(src.reshape({4, 8})[k]);
        QVERIFY(at::equal(viewed.outputs["y"], expectedWide));
    }

    // A cache parameter updated through its in-place 2-d reshape and moved back (glm's
    // `key_cache.move(pypto.scatter_update(key_cache_2d, ...))`) holds the scattered rows; a
    // result of the same rank and another shape, or of another element count, is still refused.
    void moveOfTheCacheReshapedBack()
    {
        const auto cache = at::randn({3, 4, 1, 8});
        const auto index = at::tensor({5, 0, 11, 6}, at::kInt).reshape({2, 2});
        const auto src = at::randn({4, 8});
        auto expected = cache.reshape({12, 8}).clone();
        for (int k = 0; k < 4; ++k)
            expected[index.flatten()[k].item<std::int64_t>()].copy_(src[k]);
        const auto run = [&](const std::string& moved) {
            return runSource("import pypto\n\ndef kernel(cache, index, src, y):\n"
                             "    y.move(pypto.clone(cache))\n"
                             "    y_2d = pypto.reshape(y, [12, 8], inplace=True)\n"
                             "    y.move(" +
                                 moved + ")\n",
                             {{"cache", cache}, {"index", index}, {"src", src}},
                             {{"y", {{3, 4, 1, 8}, at::kFloat}}});
        };
        auto r = run("pypto.scatter_update(y_2d, -2, index, src)");
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["y"], expected.reshape({3, 4, 1, 8})));
        for (const char* other :
             {"pypto.reshape(y, [4, 3, 1, 8])", "pypto.view(y_2d, [6, 8], [0, 0])"}) {
            auto refused = run(other);
            QVERIFY(!refused.ok());
            QVERIFY2(refused.where().find("6:5 sim.shape move: a [") == 0, refused.where().c_str());
        }
    }

    // A quantized matmul's extend_params as the cube's FixPipe applies them (matmul's API page
    // and PyPTO's quant test): the bias joins the int32 accumulation, then ReLU, then the scale,
    // of which only sign, exponent and 10 mantissa bits count (0.3 is read as 0.2998046875).
    void matmulBiasReluScaleAsTheFixPipe()
    {
        const auto a = at::randint(-5, 6, {16, 32}, at::kChar);
        const auto b = at::randint(-5, 6, {32, 16}, at::kChar);
        const auto bias = at::randint(-50, 50, {1, 16}, at::kInt);
        const auto exact = at::matmul(a.to(at::kLong), b.to(at::kLong)) + bias.to(at::kLong);
        for (const char* relu : {"RELU", "NO_RELU"}) {
            auto r =
                runSource(std::string("import pypto\n\ndef kernel(a, b, bias, y):\n"
                                      "    pypto.set_cube_tile_shapes([16, 16], [32, 32], "
                                      "[16, 16])\n"
                                      "    y[:] = pypto.matmul(a, b, pypto.DT_FP16, "
                                      "extend_params={'bias_tensor': bias, 'scale': 0.3, "
                                      "'relu_type': pypto.ReLuType.") +
                              relu + "})\n",
                          {{"a", a}, {"b", b}, {"bias", bias}}, {{"y", {{16, 16}, at::kHalf}}});
            REQUIRE_OK(r);
            const auto summed = std::string(relu) == "RELU" ? at::relu(exact) : exact;
            const auto expected = (summed.to(at::kFloat) * 0.2998046875).to(at::kHalf);
            QVERIFY2(at::equal(r.outputs["y"], expected), relu);
        }
    }

    // Integer matmuls are exact in int32 whatever their size: int8 extremes summed over a k whose
    // sums pass float32's 2^24 (a float accumulation would round them), int16, and int32 operands.
    void integerMatmulIsExact_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("low");
        QTest::addColumn<int>("high");
        QTest::newRow("int8") << int(at::kChar) << -128 << 128;
        QTest::newRow("int16") << int(at::kShort) << -30000 << 30000;
        QTest::newRow("int32") << int(at::kInt) << -30000 << 30000;
    }

    void integerMatmulIsExact()
    {
        QFETCH(int, dtype);
        QFETCH(int, low);
        QFETCH(int, high);
        const auto type = static_cast<at::ScalarType>(dtype);
        const auto a = at::randint(low, high, {4, 4096}, type);
        const auto b = at::randint(low, high, {4096, 8}, type);
        a.select(0, 0).fill_(low);
        b.select(1, 0).fill_(low);
        const auto exact = at::matmul(a.to(at::kLong), b.to(at::kLong));
        auto r = runSource("import pypto\n\ndef kernel(a, b, y):\n"
                           "    y[:] = pypto.matmul(a, b, pypto.DT_INT32)\n",
                           {{"a", a}, {"b", b}}, {{"y", {{4, 8}, at::kInt}}});
        REQUIRE_OK(r);
        // int16 sums pass int32 and wrap, as the int64 product cast to int32 does.
        QVERIFY(at::equal(r.outputs["y"], exact.to(at::kInt)));
        QVERIFY2(exact.abs().max().item<std::int64_t>() > (1 << 24) || type != at::kChar,
                 "the int8 sums stay within float32's exact range: the test would not tell");
    }

    // view(x, dtype=...) reads the view's bytes as another dtype (the API page's example: a
    // [2, 2] DT_FP32 viewed as DT_INT8 is [2, 8]); with shape and offsets, the part first.
    void viewWithADtypeReinterpretsTheBytes()
    {
        const auto x = at::randn({2, 4});
        auto r = runSource("import pypto\n\ndef kernel(x, bytes, back, part):\n"
                           "    bytes[:] = pypto.view(x, dtype=pypto.DT_INT8)\n"
                           "    back[:] = pypto.view(bytes, dtype=pypto.DT_FP32)\n"
                           "    part[:] = pypto.view(x, [2, 2], [0, 2], dtype=pypto.DT_INT16)\n",
                           {{"x", x}},
                           {{"bytes", {{2, 16}, at::kChar}},
                            {"back", {{2, 4}, at::kFloat}},
                            {"part", {{2, 4}, at::kShort}}});
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["bytes"], x.view(at::kChar)));
        QVERIFY(at::equal(r.outputs["back"], x));
        QVERIFY(at::equal(r.outputs["part"], x.slice(1, 2, 4).contiguous().view(at::kShort)));
        // With a valid shape, the bytes of the whole shape: 32 int8 of which 16 are valid are 8
        // floats, as PyPTO's reshape of such a view counts them.
        const auto bytes = at::randint(-100, 100, {4, 32}, at::kChar);
        auto whole =
            runSource("import pypto\n\ndef kernel(b, y, z):\n"
                      "    v = pypto.view(b, [4, 32], [0, 0], valid_shape=[4, 16])\n"
                      "    y[:] = pypto.view(v, dtype=pypto.DT_FP32)\n"
                      "    z[:] = pypto.view(b, [4, 32], [0, 0], valid_shape=[4, 16], "
                      "dtype=pypto.DT_FP32)\n",
                      {{"b", bytes}}, {{"y", {{4, 8}, at::kFloat}}, {"z", {{4, 8}, at::kFloat}}});
        REQUIRE_OK(whole);
        QVERIFY(at::equal(whole.outputs["y"], bytes.view(at::kFloat)));
        QVERIFY(at::equal(whole.outputs["z"], bytes.view(at::kFloat)));
    }

    // x[b, i] with an int for every dim reads one element of an integer tensor as a scalar
    // (PyPTO's GetTensorData), as paged attention reads a block table; the second index is
    // checked against the second dim.
    void elementOfAnIntegerTensorIsAScalar()
    {
        const auto x = at::randn({6, 4});
        const auto table = at::tensor({5, 1, 4, 0, 3, 2}, at::kInt).reshape({2, 3});
        auto r = runSource("import pypto\n\ndef kernel(x, table, y):\n"
                           "    pypto.set_vec_tile_shapes(2, 4)\n"
                           "    for b in pypto.loop(2):\n"
                           "        for i in range(3):\n"
                           "            row = table[b, i]\n"
                           "            y[b * 3 + i:b * 3 + i + 1, :] = pypto.view(x, [1, 4], "
                           "[row.max(0), 0])\n",
                           {{"x", x}, {"table", table}}, {{"y", {{6, 4}, at::kFloat}}});
        REQUIRE_OK(r);
        const auto expected = x.index_select(0, table.flatten().to(at::kLong));
        QVERIFY(at::equal(r.outputs["y"], expected));

        auto wrong = runSource("import pypto\n\ndef kernel(x, y):\n"
                               "    n = x[1, 2]\n    y[:] = x\n",
                               {{"x", x}}, {{"y", {{6, 4}, at::kFloat}}});
        QVERIFY(!wrong.ok());
        QCOMPARE(QString::fromStdString(wrong.where()),
                 QStringLiteral("4:9 sim.element reading one element as a scalar needs an "
                                "integer tensor (PyPTO's GetTensorData), this one is float32: "
                                "take a slice (x[i:i+1]) to get a tensor"));
    }

    // gather_in_ub, PyPTO's example: tokens 0, 4 and 3 in blocks of 2 through the page table
    // [0, 2, 1] are rows 0, 2 and 5. The param is a two-row view of the cache, and the rows past
    // it are the cache's, as the device reads them.
    void gatherInUbReadsTokensThroughThePageTable()
    {
        const auto cache = at::arange(24, at::kFloat).reshape({6, 4});
        const auto tokens = at::tensor({0, 4, 3}, at::kInt).reshape({1, 3});
        const auto table = at::tensor({0, 2, 1}, at::kInt).reshape({1, 3});
        const std::string kernel =
            "import pypto\nfrom pypto.experimental import gather_in_ub\n\n"
            "def kernel(cache, tokens, table, y):\n    pypto.set_vec_tile_shapes(4, 4)\n"
            "    window = pypto.view(cache, [2, 4], [0, 0])\n"
            "    y[:] = gather_in_ub(window, tokens, table, BLOCK, -2)\n";
        auto r = runSource(std::regex_replace(kernel, std::regex("BLOCK"), "2"),
                           {{"cache", cache}, {"tokens", tokens}, {"table", table}},
                           {{"y", {{3, 4}, at::kFloat}}});
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["y"], cache.index_select(0, at::tensor({0, 2, 5}, at::kLong))));

        auto outside = runSource(std::regex_replace(kernel, std::regex("BLOCK"), "1"),
                                 {{"cache", cache}, {"tokens", tokens}, {"table", table}},
                                 {{"y", {{3, 4}, at::kFloat}}});
        QVERIFY(!outside.ok());
        QCOMPARE(QString::fromStdString(outside.where()),
                 QStringLiteral("7:12 sim.index pypto.experimental.gather_in_ub: a token index is "
                                "outside 0..2 (the block table's 3 blocks of 1)"));
    }

    // A gather from a view whose valid columns are fewer than its declared ones has PyPTO's
    // shape, [indices, declared columns]: deepseek_v32 gathers a [tokens, 8] scale table viewed
    // with 4 valid columns and reshapes the result by 8. Rows for indices past the valid ones
    // are there too (undefined on the device), through elementwise ops and a concat.
    // gather_in_l1 takes the first `size` columns.
    void gatherOfANarrowedViewHasItsDeclaredShape()
    {
        const auto cache = at::arange(48, at::kFloat).reshape({6, 8});
        const auto tokens = at::tensor({0, 4, 3, 1}, at::kInt).reshape({1, 4});
        const auto table = at::tensor({0, 2, 1}, at::kInt).reshape({1, 3});
        const auto rows = cache.index_select(0, at::tensor({0, 2, 5}, at::kLong));
        auto r = runSource(
            "import pypto\nfrom pypto.experimental import gather_in_l1, gather_in_ub\n\n"
            "def kernel(cache, tokens, table, y, z, w, v):\n"
            "    scales = pypto.view(cache, [6, 8], [0, 0], valid_shape=[6, 4])\n"
            "    first = pypto.view(tokens, [1, 3], [0, 0])\n"
            "    y[:] = pypto.reshape(gather_in_ub(scales, first, table, 2, -2), [24, 1])\n"
            "    tail = pypto.view(tokens, [1, 4], [0, 0], valid_shape=[1, 3])\n"
            "    z[:] = pypto.reshape(gather_in_ub(scales, tail, table, 2, -2), [32, 1])\n"
            "    w[:] = gather_in_l1(cache, first, table, 2, 3, True, True)\n"
            "    rows = gather_in_ub(cache, tail, table, 2, -2)\n"
            "    half = pypto.cast(rows, pypto.DT_FP16)\n"
            "    v[:] = pypto.reshape(pypto.concat([pypto.abs(rows), pypto.cast(half, "
            "pypto.DT_FP32)], -1), "
            "[8, 8])\n",
            {{"cache", cache}, {"tokens", tokens}, {"table", table}},
            {{"y", {{24, 1}, at::kFloat}},
             {"z", {{32, 1}, at::kFloat}},
             {"w", {{3, 3}, at::kFloat}},
             {"v", {{8, 8}, at::kFloat}}});
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["y"], rows.reshape({24, 1})));
        QVERIFY(at::equal(r.outputs["z"].narrow(0, 0, 24), rows.reshape({24, 1})));
        QVERIFY(at::equal(r.outputs["w"], rows.narrow(1, 0, 3)));
        // A tail tile's rows keep their declared count through elementwise ops and a concat, so
        // the reshape by it finds them (deepseek_v32's sparse attention).
        QVERIFY(at::equal(r.outputs["v"].narrow(0, 0, 6),
                          at::cat({rows.abs(), rows}, 1).reshape({6, 8})));
    }

    // A softmax over the valid columns of a score tile meets the values' first rows in the
    // matmul after it, as the cube accumulates over the valid k (compress_flash_attention's
    // [g, 640] tile of which the keys seen so far are valid); a k that differs in the declared
    // shapes too is still an error.
    void matmulAccumulatesOverTheValidInnerDim()
    {
        const auto scores = at::randn({2, 8});
        const auto values = at::randn({8, 4});
        const std::string kernel =
            "import pypto\n\ndef kernel(scores, values, y):\n"
            "    tile = pypto.view(scores, [2, 8], [0, 0], valid_shape=[2, VALID])\n"
            "    e = pypto.exp(pypto.sub(tile, pypto.amax(tile, -1, True)))\n"
            "    p = pypto.div(e, pypto.sum(e, -1, True))\n"
            "    y[:] = pypto.matmul(p, values, pypto.DT_FP32)\n";
        auto r = runSource(std::regex_replace(kernel, std::regex("VALID"), "5"),
                           {{"scores", scores}, {"values", values}}, {{"y", {{2, 4}, at::kFloat}}});
        REQUIRE_OK(r);
        const auto expected =
            at::matmul(at::softmax(scores.narrow(1, 0, 5), 1), values.narrow(0, 0, 5));
        QVERIFY(at::allclose(r.outputs["y"], expected, 1e-5, 1e-6));

        auto mismatched =
            runSource(std::regex_replace(kernel, std::regex("VALID"), "5"),
                      {{"scores", scores}, {"values", values.narrow(0, 0, 6).contiguous()}},
                      {{"y", {{2, 4}, at::kFloat}}});
        QVERIFY(!mismatched.ok());
        QVERIFY2(mismatched.where().find("pypto.matmul inner dimensions differ") !=
                     std::string::npos,
                 mismatched.where().c_str());
    }

    // Elementwise operands that do not broadcast, one holding only the valid rows of the shape
    // the other has, meet on the valid rows, as PyPTO computes them (win_attention masks a score
    // tile with a mask view of which half the rows are valid).
    void elementwiseOperandsMeetOnTheValidPart()
    {
        const auto a = at::randn({4, 6});
        const auto b = at::randn({4, 6});
        const auto mask = b > 0;
        const auto sink = at::randn({4, 1});
        auto r = runSource(
            "import pypto\n\ndef kernel(a, b, mask, sink, y, z, w):\n"
            "    part = pypto.view(a, [4, 6], [0, 0], valid_shape=[2, 6])\n"
            "    y[:] = pypto.add(part, b)\n"
            "    z[:] = pypto.where(pypto.view(mask, [4, 6], [0, 0], valid_shape=[2, 6]), a, 0.0)\n"
            "    w[:] = pypto.sub(sink, pypto.amax(part, -1, True))\n",
            {{"a", a}, {"b", b}, {"mask", mask}, {"sink", sink}},
            {{"y", {{2, 6}, at::kFloat}},
             {"z", {{2, 6}, at::kFloat}},
             {"w", {{2, 1}, at::kFloat}}});
        REQUIRE_OK(r);
        // A row max of the valid rows meets the first rows of a per-row tensor.
        QVERIFY(at::equal(r.outputs["w"],
                          sink.narrow(0, 0, 2) - std::get<0>(a.narrow(0, 0, 2).max(1, true))));
        QVERIFY(at::equal(r.outputs["y"], a.narrow(0, 0, 2) + b.narrow(0, 0, 2)));
        QVERIFY(at::equal(r.outputs["z"], at::where(mask.narrow(0, 0, 2), a.narrow(0, 0, 2), 0.0)));
    }

    void operatorsMeetOnTheValidPartAsTheFunctions()
    {
        const auto a = at::randn({4, 6});
        const auto b = at::randn({4, 6});
        const auto sink = at::randn({4, 1});
        auto r = runSource("import pypto\n\ndef kernel(a, b, sink, y, z, w):\n"
                           "    part = pypto.view(a, [4, 6], [0, 0], valid_shape=[2, 6])\n"
                           "    y[:] = 1.0 - part + b\n"
                           "    z[:] = pypto.where(part > b, a, 0.0)\n"
                           "    w[:] = sink - pypto.amax(-part * 2.0, -1, True)\n",
                           {{"a", a}, {"b", b}, {"sink", sink}},
                           {{"y", {{2, 6}, at::kFloat}},
                            {"z", {{2, 6}, at::kFloat}},
                            {"w", {{2, 1}, at::kFloat}}});
        REQUIRE_OK(r);
        const auto valid = a.narrow(0, 0, 2);
        QVERIFY(at::allclose(r.outputs["y"], 1.0 - valid + b.narrow(0, 0, 2)));
        QVERIFY(at::equal(r.outputs["z"], at::where(valid > b.narrow(0, 0, 2), valid, 0.0)));
        QVERIFY(at::allclose(r.outputs["w"],
                             sink.narrow(0, 0, 2) - std::get<0>((-valid * 2.0).max(1, true))));
    }

    // PyPTO traces a loop's body once: a tensor made in it is one tensor for every iteration,
    // so tiles assembled into it in earlier iterations are still there (mhc_sinkhorn moves it to
    // the output each iteration). A Python loop in the body is unrolled by the trace, each pass
    // making a tensor of its own; a tensor made outside any loop is made anew each time.
    void tensorMadeInALoopBodyIsOneTensor()
    {
        const auto x = at::randn({8, 4});
        auto r =
            runSource("import pypto\n\ndef kernel(x, y, z, w):\n"
                      "    pypto.set_vec_tile_shapes(8, 8)\n"
                      "    for i in pypto.loop(4):\n"
                      "        tmp = pypto.Tensor([8, 4], pypto.DT_FP32)\n"
                      "        tile = pypto.view(x, [2, 4], [i * 2, 0])\n"
                      "        pypto.assemble(pypto.mul(tile, 2.0), [i * 2, 0], tmp)\n"
                      "        y[:] = tmp\n"
                      "    for i in pypto.loop(1):\n"
                      "        parts = []\n"
                      "        for k in range(2):\n"
                      "            part = pypto.Tensor([2, 4], pypto.DT_FP32)\n"
                      "            pypto.assemble(pypto.view(x, [2, 4], [k * 2, 0]), [0, 0], "
                      "part)\n"
                      "            parts.append(part)\n"
                      "        z[:] = pypto.concat(parts, 0)\n"
                      "    for k in range(2):\n"
                      "        once = pypto.Tensor([1, 4], pypto.DT_FP32)\n"
                      "        if k == 0:\n"
                      "            pypto.assemble(pypto.view(x, [1, 4], [0, 0]), [0, 0], once)\n"
                      "    w[:] = once\n",
                      {{"x", x}},
                      {{"y", {{8, 4}, at::kFloat}},
                       {"z", {{4, 4}, at::kFloat}},
                       {"w", {{1, 4}, at::kFloat}}});
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["y"], x * 2.0));
        QVERIFY(at::equal(r.outputs["z"], x.narrow(0, 0, 4)));
        QVERIFY(at::equal(r.outputs["w"], at::zeros({1, 4})));
    }

    // A tail tile past the end of its tensor holds its valid rows; transposed and reshaped by
    // its declared shape it keeps them, as long as the partly valid dim is not split or merged
    // (mhc_sinkhorn's [t, 16] tile of which 8 rows exist, as [4, 4, t]).
    void reshapeOfATailTileByItsDeclaredShape()
    {
        const auto x = at::rand({8, 16}) + 0.5;
        const std::string kernel =
            "import pypto\n\ndef kernel(x, y):\n"
            "    tile = pypto.view(x, [32, 16], [0, 0], valid_shape=[8, 16])\n"
            "    t = pypto.transpose(tile, 1, 0)\n"
            "    t = pypto.reshape(t, SHAPE, inplace=True)\n"
            "    t = t / pypto.sum(t, 1, True)\n"
            "    t = pypto.reshape(t, [16, 32], valid_shape=[16, 8], "
            "inplace=True)\n"
            "    y[:] = pypto.transpose(t, 1, 0)\n";
        auto r = runSource(std::regex_replace(kernel, std::regex("SHAPE"), "[4, 4, 32]"),
                           {{"x", x}}, {{"y", {{8, 16}, at::kFloat}}});
        REQUIRE_OK(r);
        const auto grouped = x.t().reshape({4, 4, 8});
        const auto expected = (grouped / grouped.sum(1, true)).reshape({16, 8}).t();
        QVERIFY(at::allclose(r.outputs["y"], expected));

        auto merged = runSource(std::regex_replace(kernel, std::regex("SHAPE"), "[512]"),
                                {{"x", x}}, {{"y", {{8, 16}, at::kFloat}}});
        QVERIFY(!merged.ok());
        QVERIFY2(merged.where().find("cannot take the shape [512]") != std::string::npos,
                 merged.where().c_str());
    }

    void packageStateAsInPypto_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("expected");
        // pypto.error and pypto.pypto_impl are the package's attributes, as in PyPTO, and the
        // arch is the one PyPTO reports without an NPU.
        QTest::newRow("package attributes")
            << "    raise pypto.error.FeError(ValueError(pypto.platform.npuarch + ' ' + "
               "repr(pypto.pypto_impl.GetNPUArch)))\n"
            << "4:5 kernel.python FeError: ErrCode: F0FFFF, ValueError: DAV_2201 "
               "<pypto.pypto_impl.GetNPUArch: not simulated>";
        // SymbolicScalar(value): a concrete scalar, a bool as the int pybind makes of it.
        QTest::newRow("symbolic scalar of a value")
            << "    raise ValueError(int(pypto.symbolic_scalar(True)) + "
               "int(pypto.symbolic_scalar(5)))\n"
            << "4:5 kernel.python ValueError: 6";
        // A loop is a configuration scope: the tile shapes set inside it end with it.
        QTest::newRow("loop scope") << "    pypto.set_vec_tile_shapes(4, 8)\n    for _ in "
                                       "pypto.loop(1):\n"
                                       "        pypto.set_vec_tile_shapes(2, 8)\n"
                                       "    raise ValueError(pypto.get_vec_tile_shapes())\n"
                                    << "7:5 kernel.python ValueError: [4, 8]";
    }

    void packageStateAsInPypto()
    {
        QFETCH(QString, body);
        QFETCH(QString, expected);
        auto r = runSource("import pypto\n\ndef kernel(x, y):\n" + body.toStdString(),
                           {{"x", at::randn({4, 8})}}, {{"y", {{4, 8}, at::kFloat}}});
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.where()), expected);
    }
};

QTEST_GUILESS_MAIN(TestSimPyptoSemantics)
#include "tst_sim_pypto_semantics.moc"
