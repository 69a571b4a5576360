# RapidJSON 1.1.0 (Debian 12) has defects every build works around in a copy of its headers under
# <build>/rapidjson-compat (include_directories BEFORE the system one; GCC's build too, so that
# hack/check-coawait.sh can parse its compile commands with clang), each fixed upstream the same way:
#  - document.h: a copy assignment that assigns a const member; clang >= 19 rejects it even unused;
#  - internal/strtod.h: StrtodFullPrecision wraps an unsigned exponent for numbers such as
#    0.000...0524 (hundreds of zeros) and reads outside a table: a crash on hostile JSON, found by
#    the fuzzer (strtod_full_precision.inc beside this file replaces the function); and StrtodDiyFp
#    rounds a significand of 2^64 - 1 up to 0 (a wrong value, also found by the fuzzer);
#  - reader.h: a lone low surrogate escape (\udc00-\udfff) was written out as bytes that are not
#    UTF-8, which the next parse refuses (found by the fuzzer); it is now refused as a lone high one is.
# Included by the top-level CMakeLists.txt after find_package(RapidJSON); sets ctrl_rapidjson_compat.
set(ctrl_rapidjson_compat "${CMAKE_BINARY_DIR}/rapidjson-compat")

# ctrl_rapidjson_replace(<var> <header> <old> <new>): replaces old with new in the text held by var;
# fails the configuration naming header when old is not there (not the 1.1.0 these patches are for).
function(ctrl_rapidjson_replace var header old new)
  string(FIND "${${var}}" "${old}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "RapidJSON's ${header} is not the 1.1.0 this project patches: check "
                        "cmake/rapidjson/compat.cmake against it")
  endif()
  string(REPLACE "${old}" "${new}" text "${${var}}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# ctrl_rapidjson_write(<header> <text>): writes the patched header only when its content changes, so
# that a reconfigure does not rebuild everything that includes it.
function(ctrl_rapidjson_write header text)
  file(WRITE "${ctrl_rapidjson_compat}/rapidjson/${header}.new" "${text}")
  file(COPY_FILE "${ctrl_rapidjson_compat}/rapidjson/${header}.new" "${ctrl_rapidjson_compat}/rapidjson/${header}"
       ONLY_IF_DIFFERENT)
  file(REMOVE "${ctrl_rapidjson_compat}/rapidjson/${header}.new")
endfunction()

file(COPY "${RAPIDJSON_INCLUDE_DIRS}/rapidjson" DESTINATION "${ctrl_rapidjson_compat}" PATTERN "strtod.h" EXCLUDE
     PATTERN "document.h" EXCLUDE PATTERN "reader.h" EXCLUDE)

file(READ "${RAPIDJSON_INCLUDE_DIRS}/rapidjson/reader.h" ctrl_rapidjson_reader)
set(ctrl_rapidjson_pair_end
    "                        codepoint = (((codepoint - 0xD800) << 10) | (codepoint2 - 0xDC00)) + 0x10000;\n                    }\n")
ctrl_rapidjson_replace(ctrl_rapidjson_reader reader.h "${ctrl_rapidjson_pair_end}"
  "${ctrl_rapidjson_pair_end}                    else if (RAPIDJSON_UNLIKELY(codepoint >= 0xDC00 && codepoint <= 0xDFFF))\n                        RAPIDJSON_PARSE_ERROR(kParseErrorStringUnicodeSurrogateInvalid, escapeOffset);\n")
ctrl_rapidjson_write(reader.h "${ctrl_rapidjson_reader}")

file(READ "${RAPIDJSON_INCLUDE_DIRS}/rapidjson/document.h" ctrl_rapidjson_document)
string(REPLACE "GenericStringRef& operator=(const GenericStringRef& rhs) { s = rhs.s; length = rhs.length; }" ""
       ctrl_rapidjson_document "${ctrl_rapidjson_document}")
ctrl_rapidjson_write(document.h "${ctrl_rapidjson_document}")

file(READ "${RAPIDJSON_INCLUDE_DIRS}/rapidjson/internal/strtod.h" ctrl_rapidjson_strtod)
string(FIND "${ctrl_rapidjson_strtod}" "inline double StrtodFullPrecision(" ctrl_strtod_begin)
string(FIND "${ctrl_rapidjson_strtod}" "} // namespace internal" ctrl_strtod_end)
if(ctrl_strtod_begin EQUAL -1 OR ctrl_strtod_end EQUAL -1 OR ctrl_strtod_end LESS ctrl_strtod_begin)
  message(FATAL_ERROR "RapidJSON's internal/strtod.h is not the 1.1.0 this project patches: check "
                      "cmake/rapidjson/strtod_full_precision.inc against it")
endif()
string(SUBSTRING "${ctrl_rapidjson_strtod}" 0 ${ctrl_strtod_begin} ctrl_strtod_head)
string(SUBSTRING "${ctrl_rapidjson_strtod}" ${ctrl_strtod_end} -1 ctrl_strtod_tail)
file(READ "${CMAKE_CURRENT_LIST_DIR}/strtod_full_precision.inc" ctrl_strtod_fixed)
string(REPLACE "#include \"pow10.h\"" "#include \"pow10.h\"\n#include <limits>" ctrl_strtod_head "${ctrl_strtod_head}")
# StrtodDiyFp rounds a significand of 2^64 - 1 up to 0 (18446744073709551615789... read as 1.1e43,
# and __builtin_clzll(0)): that significand stays as it is, its error counted as a whole ulp.
ctrl_rapidjson_replace(ctrl_strtod_head internal/strtod.h
  "    if (i < length && decimals[i] >= '5') // Rounding\n        significand++;\n"
  "    const bool ctrlSaturated = i < length && decimals[i] >= '5' && significand == std::numeric_limits<uint64_t>::max();\n    if (i < length && decimals[i] >= '5' && !ctrlSaturated) // Rounding\n        significand++;\n")
ctrl_rapidjson_replace(ctrl_strtod_head internal/strtod.h
  "    int64_t error = (remaining == 0) ? 0 : kUlp / 2;\n"
  "    int64_t error = (remaining == 0) ? 0 : (ctrlSaturated ? kUlp : kUlp / 2);\n")
ctrl_rapidjson_write(internal/strtod.h "${ctrl_strtod_head}${ctrl_strtod_fixed}${ctrl_strtod_tail}")
