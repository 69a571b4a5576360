#pragma once

#include <memory>
#include <vector>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "ctrl/server/tls_identity.hpp"

namespace ctrl::server {

// The OpenSSL objects of a TlsIdentity (server layer only).
struct TlsIdentity::Native {
    struct FreeX509 {
        void operator()(X509* cert) const { X509_free(cert); }
    };
    struct FreeKey {
        void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
    };
    std::vector<std::unique_ptr<X509, FreeX509>> chain;  // leaf first
    std::unique_ptr<EVP_PKEY, FreeKey> key;
};

}  // namespace ctrl::server
