#pragma once

#include "diag/diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace ptowb::kernel {

// A position in the kernel file: 1-based line and column (code points).
struct Pos
{
    int line = 1;
    int col = 1;
};

// A one-character diagnostic at a kernel position: how every kernel problem is reported.
Diagnostic diagnosticAt(const std::string& file, Pos pos, std::string code, std::string message);

enum class TokenKind
{
    Name,
    Int,
    Float,
    String,
    Op,
    Newline,
    Indent,
    Dedent,
    End
};

struct Token
{
    TokenKind kind = TokenKind::End;
    std::string text; // names, operators, number text, the decoded string value
    Pos pos;
    Pos end;
    bool startsLine = false; // the first token of a logical line (after its INDENT/DEDENTs)
};

// How a carriage return reads: Python takes a lone one as a line end (and \r\n as one);
// TorchScript, which compiles reference.py, takes it as a blank.
enum class CarriageReturn
{
    LineEnd,
    Blank
};

// The workbench's one Python tokenizer: the kernel's parser and the reference's checks
// (core/reference) read its tokens. Splits Python source into tokens: comments, indentation
// (INDENT/DEDENT), implicit line joining inside brackets and after a backslash, strings (quotes,
// triple quotes, escapes, prefixes r/b/u/f/t and their pairs; an f-string is one token,
// replacement fields included), numbers (1e-3, 0x1f, 1_000, .5, 2j). Problems are diagnostics.
std::vector<Token> tokenize(std::string_view source, const std::string& file,
                            Diagnostics& diagnostics,
                            CarriageReturn carriageReturn = CarriageReturn::LineEnd);

} // namespace ptowb::kernel
