#pragma once
// The attribute JSON Ascend's parser hands an ONNX plugin, built as the parser builds it
// (Ascend/parser parser/common/convert/message2operator.cc and pb2json.cc), and how the plugin
// test prints the values a plugin sets.
#include "spec/op_spec.h"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cann_test {

using ptowb::ParamType;
using ptowb::rules::Value;

// protobuf's CEscape, as the parser applies it to an attribute's "s" bytes.
inline std::string cEscape(const std::string& in)
{
    std::string out;
    for (unsigned char c : in) {
        switch (c) {
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\'':
            out += "\\'";
            break;
        case '\\':
            out += "\\\\";
            break;
        default:
            if (c < 0x20 || c >= 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\%03o", c);
                out += buf;
            } else {
                out += char(c);
            }
        }
    }
    return out;
}

// The float the plugin gets: the parser prints it with %g into ten bytes, or writes the
// number when that does not fit.
inline float viaParser(double v)
{
    char buf[32];
    const int n = std::snprintf(buf, sizeof buf, "%g", double(float(v)));
    return n < 10 ? float(std::strtod(buf, nullptr)) : float(v);
}

// One ONNX attribute as the parser writes it into the JSON (AttributeProto, proto3: a zero,
// an empty string or an empty list is not written).
inline nlohmann::json parserAttribute(const std::string& name, ParamType type, const Value& v)
{
    nlohmann::json a{{"name", name}};
    switch (type) {
    case ParamType::Bool:
    case ParamType::Int:
        a["type"] = 2;
        if (v.i != 0) a["i"] = v.i;
        break;
    case ParamType::Float: {
        a["type"] = 1;
        char buf[32];
        if (float(v.f) != 0 && std::snprintf(buf, sizeof buf, "%g", double(float(v.f))) < 10)
            a["f"] = buf;
        else if (float(v.f) != 0)
            a["f"] = float(v.f);
        break;
    }
    case ParamType::Str:
        a["type"] = 3;
        if (!v.s.empty()) a["s"] = cEscape(v.s);
        break;
    case ParamType::IntList:
        a["type"] = 7;
        if (!v.ints.empty()) a["ints"] = v.ints;
        break;
    case ParamType::FloatList: {
        a["type"] = 6;
        std::vector<float> floats(v.floats.begin(), v.floats.end());
        if (!floats.empty()) a["floats"] = floats;
        break;
    }
    }
    return a;
}

inline std::string hex(const std::string& s)
{
    std::string out;
    char buf[4];
    for (unsigned char c : s)
        std::snprintf(buf, sizeof buf, "%02x", c), out += buf;
    return out;
}

inline std::string floatText(float f)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", double(f));
    return buf;
}

// What the driver prints for a parameter value op_dest holds.
inline std::string canonical(ParamType type, const Value& v, bool throughParser)
{
    switch (type) {
    case ParamType::Bool:
        return v.asBool() ? "true" : "false";
    case ParamType::Int:
        return std::to_string(v.i);
    case ParamType::Float:
        return floatText(throughParser ? viaParser(v.f) : float(v.f));
    case ParamType::Str:
        return hex(v.s);
    case ParamType::IntList: {
        std::string out;
        for (auto i : v.ints)
            out += (out.empty() ? "" : ",") + std::to_string(i);
        return "[" + out + "]";
    }
    case ParamType::FloatList: {
        std::string out;
        for (auto f : v.floats)
            out += (out.empty() ? "" : ",") + floatText(float(f));
        return "[" + out + "]";
    }
    }
    return {};
}

} // namespace cann_test
