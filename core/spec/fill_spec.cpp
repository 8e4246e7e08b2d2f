#include "spec/fill_spec.h"

#include <cmath>
#include <cstdlib>
#include <vector>

namespace ptowb {
namespace {

std::string trim(std::string_view s)
{
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return std::string(s.substr(b, e - b));
}

constexpr FillForm kFillForms[] = {
    {"normal", FillSpec::Kind::Normal, true, "normal(mean, std)", "Gaussian case input"},
    {"uniform", FillSpec::Kind::Uniform, true, "uniform(lo, hi)",
     "uniformly distributed case input"},
    {"randint", FillSpec::Kind::RandInt, true, "randint(lo, hi)", "integers in [lo, hi)"},
    {"arange", FillSpec::Kind::Arange, false, "arange", "0, 1, 2, ... in C order"},
    {"zeros", FillSpec::Kind::Zeros, false, "zeros", "all zeros"},
    {"ones", FillSpec::Kind::Ones, false, "ones", "all ones"},
};

std::string formsText()
{
    std::string out;
    for (const FillForm& form : kFillForms)
        out += std::string(form.written) + ", ";
    return out + "or file:<path>.npy";
}

} // namespace

std::span<const FillForm> fillForms()
{
    return kFillForms;
}

std::variant<FillSpec, std::string> parseFillSpec(std::string_view raw)
{
    const std::string text = trim(raw);
    FillSpec fill;
    if (text.rfind("file:", 0) == 0) {
        fill.kind = FillSpec::Kind::File;
        fill.path = trim(text.substr(5));
        if (fill.path.size() < 5 || fill.path.substr(fill.path.size() - 4) != ".npy")
            return std::string("a file fill names a .npy file, e.g. file:data/x.npy");
        if (fill.path[0] == '/' || fill.path.find("..") != std::string::npos)
            return std::string("a file: path must stay inside the project folder");
        return fill;
    }
    const std::size_t open = text.find('(');
    const std::string name = trim(text.substr(0, open));
    const FillForm* form = nullptr;
    for (const FillForm& f : kFillForms)
        if (name == f.name) form = &f;
    if (!form) return "unknown fill '" + text + "'; use " + formsText();
    fill.kind = form->kind;
    if (!form->takesArgs) {
        if (open != std::string::npos && trim(text.substr(open)) != "()")
            return name + " takes no arguments";
        return fill;
    }
    if (open == std::string::npos || text.back() != ')')
        return name + " needs two arguments, e.g. " + name + "(0, 1)";
    const std::string inner = text.substr(open + 1, text.size() - open - 2);
    const std::size_t comma = inner.find(',');
    if (comma == std::string::npos || inner.find(',', comma + 1) != std::string::npos)
        return name + " needs exactly two arguments, e.g. " + name + "(0, 1)";
    std::vector<double> args;
    for (const std::string& part : {trim(inner.substr(0, comma)), trim(inner.substr(comma + 1))}) {
        char* end = nullptr;
        const double v = std::strtod(part.c_str(), &end);
        if (part.empty() || *end != '\0' || !std::isfinite(v))
            return "'" + part + "' is not a finite number";
        args.push_back(v);
    }
    fill.a = args[0];
    fill.b = args[1];
    if (fill.kind == FillSpec::Kind::Normal && fill.b < 0) return "normal: std must be >= 0";
    if (fill.kind == FillSpec::Kind::Uniform && fill.b < fill.a)
        return "uniform: lo must not exceed hi";
    if (fill.kind == FillSpec::Kind::RandInt) {
        if (fill.a != std::floor(fill.a) || fill.b != std::floor(fill.b))
            return "randint: bounds must be integers";
        if (fill.b <= fill.a) return "randint: hi must be greater than lo (hi is exclusive)";
    }
    return fill;
}

std::string fillSpecToString(const FillSpec& fill)
{
    auto num = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", v);
        return std::string(buf);
    };
    if (fill.kind == FillSpec::Kind::File) return "file:" + fill.path;
    for (const FillForm& form : kFillForms)
        if (form.kind == fill.kind)
            return form.takesArgs
                       ? std::string(form.name) + "(" + num(fill.a) + ", " + num(fill.b) + ")"
                       : std::string(form.name);
    return {};
}

FillSpec defaultFill(DType dtype)
{
    FillSpec fill;
    switch (dtypeInfo(dtype).kind) {
    case DTypeKind::Floating:
        fill.kind = FillSpec::Kind::Normal;
        fill.a = 0;
        fill.b = 1;
        break;
    case DTypeKind::Bool:
        fill.kind = FillSpec::Kind::RandInt;
        fill.a = 0;
        fill.b = 2;
        break;
    case DTypeKind::Integer:
        fill.kind = FillSpec::Kind::RandInt;
        fill.a = dtype == DType::UInt8 ? 0 : -8;
        fill.b = 8;
        break;
    }
    return fill;
}

} // namespace ptowb
