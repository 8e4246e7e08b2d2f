# Writes a C++ file defining `const char* <SYMBOL>()` in namespace <NAMESPACE>, returning the
# text of <INPUT> verbatim, so a file can be both compiled and emitted into generated code.
# -DINPUT=<file> -DOUT=<file.cpp> -DNAMESPACE=<ns> -DSYMBOL=<name>
file(READ "${INPUT}" text)
string(FIND "${text}" ")PTOWBTEXT\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter")
endif()
file(WRITE "${OUT}.tmp" "// Generated from ${INPUT} by embed_text.cmake.\nnamespace ${NAMESPACE} {\nconst char* ${SYMBOL}()\n{\n    return R\"PTOWBTEXT(${text})PTOWBTEXT\";\n}\n} // namespace ${NAMESPACE}\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
