#include "ctrl/server/internal/gzip.hpp"

#include <zlib.h>

#include <cctype>

namespace ctrl::server::internal {
namespace {

std::string_view Trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

bool IsGzipToken(std::string_view token) {
    if (token.size() != 4)
        return false;
    for (size_t i = 0; i < 4; ++i) {
        if (std::tolower(static_cast<unsigned char>(token[i])) != "gzip"[i])
            return false;
    }
    return true;
}

// "q=0", "q=0.0", "q=0.000": the coding is refused.
bool IsZeroQuality(std::string_view params) {
    while (!params.empty()) {
        const size_t semi = params.find(';');
        std::string_view param = Trim(params.substr(0, semi));
        params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
        if (param.size() >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
            std::string_view value = param.substr(2);
            if (value.empty() || value[0] != '0')
                return false;
            for (char c : value.substr(1)) {
                if (c != '.' && c != '0')
                    return false;
            }
            return true;
        }
    }
    return false;
}

}  // namespace

StatusOr<std::string> Gzip(std::string_view data) {
    z_stream stream{};
    // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return InternalError("gzip: deflateInit2 failed");
    std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int result = deflate(&stream, Z_FINISH);
    const size_t written = stream.total_out;
    deflateEnd(&stream);
    if (result != Z_STREAM_END)
        return InternalError("gzip: deflate failed (" + std::to_string(result) + ")");
    out.resize(written);
    return out;
}

bool AcceptsGzip(std::string_view accept_encoding) {
    while (!accept_encoding.empty()) {
        const size_t comma = accept_encoding.find(',');
        std::string_view part = accept_encoding.substr(0, comma);
        accept_encoding = comma == std::string_view::npos ? std::string_view() : accept_encoding.substr(comma + 1);
        const size_t semi = part.find(';');
        if (!IsGzipToken(Trim(part.substr(0, semi))))
            continue;
        return semi == std::string_view::npos || !IsZeroQuality(part.substr(semi + 1));
    }
    return false;
}

}  // namespace ctrl::server::internal
