# Debian's libqscintilla2-qt6-dev ships no CMake package: locate its header and library
# and expose them as the imported target QScintilla::QScintilla.
find_path(QScintillaQt6_INCLUDE_DIR
  NAMES Qsci/qsciscintilla.h
  PATH_SUFFIXES qt6 x86_64-linux-gnu/qt6 aarch64-linux-gnu/qt6
  HINTS ${Qt6Core_INCLUDE_DIRS} ${QT6_INSTALL_PREFIX}/include)
find_library(QScintillaQt6_LIBRARY NAMES qscintilla2_qt6)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(QScintillaQt6
  REQUIRED_VARS QScintillaQt6_LIBRARY QScintillaQt6_INCLUDE_DIR)

if(QScintillaQt6_FOUND AND NOT TARGET QScintilla::QScintilla)
  add_library(QScintilla::QScintilla UNKNOWN IMPORTED)
  set_target_properties(QScintilla::QScintilla PROPERTIES
    IMPORTED_LOCATION "${QScintillaQt6_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${QScintillaQt6_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS "QSCINTILLA_DLL"
    INTERFACE_LINK_LIBRARIES "Qt6::Widgets")
endif()
mark_as_advanced(QScintillaQt6_INCLUDE_DIR QScintillaQt6_LIBRARY)
