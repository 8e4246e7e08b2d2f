// The position-tracking JSON reader: spans of values and keys, and bad input of every kind.
#include "json/json_document.h"
#include "json/json_text.h"
#include <QtTest>

using namespace ptowb;

class TestJson : public QObject
{
    Q_OBJECT

private:
    static JsonDocument parse(const std::string& text)
    {
        return JsonDocument::parse(text, "op.json");
    }
    static QString at(const Diagnostic& d)
    {
        return QStringLiteral("%1:%2 %3")
            .arg(d.line)
            .arg(d.col)
            .arg(QString::fromStdString(d.code));
    }
    static std::string spanText(const JsonDocument& doc, const std::string& pointer)
    {
        const JsonSpan s = doc.valueSpan(pointer);
        return doc.text().substr(s.begin, s.end - s.begin);
    }

private slots:
    void valueSpans()
    {
        const std::string text = "{\n  \"a\": 12,\n  \"b\" : [true, \"x\\\"y\", null, -1.5e3],\n  "
                                 "\"c\": {\"d\": {}}\n}\n";
        const JsonDocument doc = parse(text);
        QVERIFY(doc.ok());
        QVERIFY(doc.diagnostics().empty());
        QCOMPARE(spanText(doc, "/a"), std::string("12"));
        QCOMPARE(spanText(doc, "/b/0"), std::string("true"));
        QCOMPARE(spanText(doc, "/b/1"), std::string("\"x\\\"y\""));
        QCOMPARE(spanText(doc, "/b/2"), std::string("null"));
        QCOMPARE(spanText(doc, "/b/3"), std::string("-1.5e3"));
        QCOMPARE(spanText(doc, "/c/d"), std::string("{}"));
        QCOMPARE(spanText(doc, "/b"), std::string("[true, \"x\\\"y\", null, -1.5e3]"));
        QCOMPARE(spanText(doc, ""), text.substr(0, text.size() - 1));
        auto key = doc.keySpan("/b");
        QVERIFY(key);
        QCOMPARE(text.substr(key->begin, key->end - key->begin), std::string("\"b\""));
        // A missing pointer falls back to its nearest existing ancestor.
        QCOMPARE(spanText(doc, "/c/d/missing"), std::string("{}"));
    }

    void lineAndColumn()
    {
        const JsonDocument doc = parse("{\n  \"name\": \"é\", \"n\": 3\n}");
        Diagnostic d = doc.diagnostic("/n", Severity::Error, "x", "m");
        QCOMPARE(d.line, 2);
        QCOMPARE(d.col, 21); // "é" is one column although it is two bytes
        Diagnostic k = doc.diagnostic("/n", Severity::Error, "x", "m", true);
        QCOMPARE(k.col, 16);
    }

    void pointerEscaping()
    {
        const JsonDocument doc = parse("{\"a/b\": 1, \"c~d\": 2}");
        QCOMPARE(spanText(doc, "/a~1b"), std::string("1"));
        QCOMPARE(spanText(doc, "/c~0d"), std::string("2"));
    }

    void offsetsInsideEscapedStrings()
    {
        // Rule errors point inside strings; escapes shift raw offsets.
        const std::string text = "{\"r\": \"a\\\"b\\u00e9\\ud83d\\ude00c\"}";
        const JsonDocument doc = parse(text);
        const std::size_t begin = doc.valueSpan("/r").begin;
        QCOMPARE(doc.offsetInString("/r", 0), begin + 1);  // a
        QCOMPARE(doc.offsetInString("/r", 1), begin + 2);  // \"
        QCOMPARE(doc.offsetInString("/r", 2), begin + 4);  // b
        QCOMPARE(doc.offsetInString("/r", 3), begin + 5);  // \u00e9 (2 bytes decoded)
        QCOMPARE(doc.offsetInString("/r", 5), begin + 11); // surrogate pair (4 bytes decoded)
        QCOMPARE(doc.offsetInString("/r", 9), begin + 23); // c
        QCOMPARE(text[doc.offsetInString("/r", 9)], 'c');
    }

    void byteOrderMark()
    {
        const JsonDocument doc = parse("\xEF\xBB\xBF{\"a\": 1}");
        QVERIFY(doc.ok());
        QCOMPARE(spanText(doc, "/a"), std::string("1"));
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray("") << "1:1 json.syntax";
        QTest::newRow("whitespace only") << QByteArray("  \n  ") << "2:3 json.syntax";
        QTest::newRow("truncated object") << QByteArray("{\n  \"a\": [1, 2") << "2:13 json.syntax";
        QTest::newRow("truncated string") << QByteArray("{\"a\": \"abc") << "1:11 json.syntax";
        QTest::newRow("trailing comma in array")
            << QByteArray("{\"a\": [1, 2,]}") << "1:13 json.syntax";
        QTest::newRow("trailing comma in object")
            << QByteArray("{\n\"a\": 1,\n}") << "3:1 json.syntax";
        QTest::newRow("missing colon") << QByteArray("{\"a\" 1}") << "1:6 json.syntax";
        // A missing comma is reported after the value that lacks it, not at the next line's.
        QTest::newRow("missing comma in object")
            << QByteArray("{\n  \"a\": \"x\"\n  \"b\": 2\n}") << "2:10 json.syntax";
        QTest::newRow("missing comma in list")
            << QByteArray("{\"a\": [1, 2 3]}") << "1:11 json.syntax";
        QTest::newRow("missing comma after object")
            << QByteArray("{\"a\": {\"b\": 1} \"c\": 2}") << "1:14 json.syntax";
        QTest::newRow("single quotes") << QByteArray("{'a': 1}") << "1:2 json.syntax";
        QTest::newRow("comment") << QByteArray("{\n// c\n\"a\": 1}") << "2:1 json.syntax";
        QTest::newRow("garbage after value") << QByteArray("{} x") << "1:4 json.syntax";
        QTest::newRow("bare word") << QByteArray("{\"a\": tru}") << "1:10 json.syntax";
        QTest::newRow("NaN") << QByteArray("{\"a\": NaN}") << "1:7 json.syntax";
        QTest::newRow("invalid UTF-8 in string")
            << QByteArray("{\"a\": \"\xff\xfe\"}") << "1:8 json.syntax";
        QTest::newRow("invalid UTF-8 outside") << QByteArray("{\xc3\x28: 1}") << "1:2 json.syntax";
        QTest::newRow("control char in string")
            << QByteArray("{\"a\": \"x\ty\"}") << "1:9 json.syntax";
        QTest::newRow("bad escape") << QByteArray("{\"a\": \"\\q\"}") << "1:9 json.syntax";
        QTest::newRow("lone surrogate") << QByteArray("{\"a\": \"\\ud800\"}") << "1:14 json.syntax";
        QTest::newRow("NUL byte") << QByteArray("{\"a\": 1,\0 \"b\": 2}", 17) << "1:9 json.syntax";
        QTest::newRow("duplicate key")
            << QByteArray("{\"a\": 1,\n \"a\": 2}") << "2:2 json.duplicate-key";
        QTest::newRow("duplicate nested key")
            << QByteArray("{\"o\": {\"k\": 1, \"k\": {}}}") << "1:16 json.duplicate-key";
    }

    void malformed()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const JsonDocument doc = parse(text.toStdString());
        QVERIFY(!doc.diagnostics().empty());
        QCOMPARE(at(doc.diagnostics().front()), expected);
        QVERIFY(doc.diagnostics().front().message.find("json.exception") == std::string::npos);
    }

    void duplicateKeyKeepsDocumentUsable()
    {
        const JsonDocument doc = parse("{\"a\": 1, \"a\": 2}");
        QVERIFY(doc.ok());
        QVERIFY(hasErrors(doc.diagnostics()));
    }

    void deepNesting()
    {
        // Refused at the depth limit (a parser that recursed on would overflow its stack).
        const std::string deep = std::string(10000, '[') + std::string(10000, ']');
        const JsonDocument doc = parse(deep);
        QVERIFY(!doc.ok());
        QCOMPARE(doc.diagnostics().front().code, std::string("json.too-deep"));
        QCOMPARE(doc.diagnostics().front().col, JsonDocument::kMaxDepth + 1);
        std::string nestedObjects;
        for (int k = 0; k < 10000; ++k)
            nestedObjects += "{\"a\":";
        const JsonDocument doc2 = parse(nestedObjects + "1" + std::string(10000, '}'));
        QCOMPARE(doc2.diagnostics().front().code, std::string("json.too-deep"));
        // Depth just inside the limit parses.
        const int ok = JsonDocument::kMaxDepth;
        QVERIFY(parse(std::string(std::size_t(ok), '[') + std::string(std::size_t(ok), ']')).ok());
    }

    void hugeFile()
    {
        // 50 MB: rejected with a clear diagnostic before parsing, not a hang.
        std::string big = "{\"a\": \"" + std::string(50u << 20, 'x') + "\"}";
        const JsonDocument doc = parse(big);
        QVERIFY(!doc.ok());
        QCOMPARE(doc.diagnostics().front().code, std::string("json.too-large"));
        QCOMPARE(doc.diagnostics().front().line, 1);
    }

    void hugeNumbers()
    {
        const JsonDocument overflow = parse("{\"a\": 1e400}");
        QVERIFY(!overflow.ok());
        QCOMPARE(overflow.diagnostics().front().col, 7);
        QVERIFY(overflow.diagnostics().front().message.find("1e400") != std::string::npos);
        const JsonDocument doc =
            parse("{\"b\": 99999999999999999999999, \"c\": -9223372036854775809}");
        QVERIFY(doc.ok());
        QVERIFY(!doc.root()["b"].is_number_integer()); // too large for 64 bits: read as a double
        QCOMPARE(spanText(doc, "/c"), std::string("-9223372036854775809"));
    }

    // Written for people: short arrays of numbers stay on one line, objects and long arrays
    // are indented; whatever the layout, the text reads back as the same value.
    void readableLayout()
    {
        using ojson = nlohmann::ordered_json;
        ojson value = ojson::object();
        value["shape"] = {16, 64};
        value["tiles"] = ojson::array({ojson{128, 128}, ojson{64, 64}});
        value["empty"] = ojson::array();
        value["none"] = ojson::object();
        value["cases"] = ojson::array({ojson{{"name", "a\"b"}, {"x", 1.5}}});
        value["reuse"] =
            ojson{{"dict", ojson::array({ojson{2, 4}, ojson{3, ojson{{"dict", ojson::array()}}}})}};
        value["long"] = ojson::array();
        for (std::int64_t k = 1; k <= 9; ++k)
            value["long"].push_back(k * 1111111111);
        const std::string text = readableJson(value);
        QVERIFY2(text.find("\"shape\": [16, 64],\n") != std::string::npos, text.c_str());
        QVERIFY(text.find("\"tiles\": [[128, 128], [64, 64]],\n") != std::string::npos);
        QVERIFY(text.find("\"empty\": [],\n  \"none\": {},\n") != std::string::npos);
        QVERIFY(text.find("\"cases\": [\n    {\n      \"name\": \"a\\\"b\",") != std::string::npos);
        QVERIFY(text.find("\"long\": [\n    1111111111,\n") != std::string::npos);
        // A literal dict reads like the list of pairs it holds.
        QVERIFY2(text.find("\"reuse\": {\"dict\": [[2, 4], [3, {\"dict\": []}]]},\n") !=
                     std::string::npos,
                 text.c_str());
        for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
            end = text.find('\n', at);
            if (end == std::string::npos) end = text.size();
            QVERIFY2(end - at <= 100, text.substr(at, end - at).c_str());
        }
        QCOMPARE(nlohmann::ordered_json::parse(text), value);
        QCOMPARE(readableJson(nlohmann::ordered_json(3)), std::string("3"));
        QCOMPARE(readableJson(nlohmann::ordered_json::array()), std::string("[]"));
    }
};

QTEST_GUILESS_MAIN(TestJson)
#include "tst_json.moc"
