#include "ctrl/rest/internal/cpprest_errors.hpp"

#include <openssl/err.h>

#include <cerrno>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include <cpprest/base_uri.h>
#include <cpprest/http_msg.h>
#include <pplx/pplxtasks.h>

namespace ctrl::rest::internal::cpprest {
namespace {

bool Contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

// cpprestsdk passes Boost error values on as plain ints: asio's "end of file" arrives as 2 and a
// TLS stream truncated without close_notify as 1, which errno would read as ENOENT and EPERM.
std::string SocketCause(int code) {
    switch (code) {
        case 0:
            return "";
        case 1:
        case 2:
            return "the server closed the connection";
        case EHOSTUNREACH:  // cpprestsdk reports a refused connection as this too
            return "connection refused or host unreachable";
        default:
            return std::generic_category().message(code);
    }
}

std::string TlsCause(int code, const ErrorScene& scene) {
    if (scene.tls && scene.tls->Failures() > scene.tls_failures_before)
        return "certificate verify failed: " + scene.tls->LastFailure();
    const auto packed = static_cast<unsigned long>(code);
    if (ERR_GET_LIB(packed) != 0) {
        if (const char* reason = ERR_reason_error_string(packed))
            return reason;
    }
    if (code == 1 || code == 2)
        return "the server closed the connection during the handshake (is it serving TLS?)";
    return code == 0 ? "unknown error" : std::generic_category().message(code);
}

Status FromHttpException(const web::http::http_exception& e, const ErrorScene& scene) {
    const int code = e.error_code().value();
    const std::string what = e.what();
    const std::string& op = scene.operation;
    if (code == static_cast<int>(std::errc::operation_canceled))
        return CancelledError(op + ": cancelled");
    if (code == static_cast<int>(std::errc::timed_out)) {
        return TimeoutError(op + ": nothing received from " + scene.server + " for " +
                            std::to_string(scene.idle_timeout.count()) + " ms (idle timeout)");
    }
    if (Contains(what, "SSL handshake"))
        return UnavailableError(op + ": TLS handshake with " + scene.server + " failed: " + TlsCause(code, scene));
    std::string cause = SocketCause(code);
    const std::string detail = cause.empty() ? what : what + ": " + cause;
    if (Contains(what, "connect") || Contains(what, "resolv"))
        return UnavailableError(op + ": connecting to " + scene.server + " failed: " + detail);
    if (Contains(what, "response body") || Contains(what, "chunk"))
        return UnavailableError(op + ": connection to " + scene.server + " lost in the middle of the body: " + detail);
    if (Contains(what, "status line") || Contains(what, "header"))
        return UnavailableError(op + ": " + scene.server + " sent no complete response: " + detail);
    return UnavailableError(op + ": " + detail);
}

}  // namespace

Status StatusFromException(const std::exception_ptr& error, const ErrorScene& scene) {
    try {
        std::rethrow_exception(error);
    } catch (const web::http::http_exception& e) {
        return FromHttpException(e, scene);
    } catch (const pplx::task_canceled&) {
        return CancelledError(scene.operation + ": cancelled");
    } catch (const web::uri_exception& e) {
        return BadRequestError(scene.operation + ": invalid URI: " + e.what());
    } catch (const std::invalid_argument& e) {
        return BadRequestError(scene.operation + ": " + e.what());
    } catch (const std::exception& e) {
        return InternalError(scene.operation + ": " + e.what());
    } catch (...) {
        return InternalError(scene.operation + ": unknown exception from cpprestsdk");
    }
}

}  // namespace ctrl::rest::internal::cpprest
