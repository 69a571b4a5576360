#include "ctrl/rest/internal/cpprest_tls.hpp"

#include <arpa/inet.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <utility>

namespace ctrl::rest::internal::cpprest {
namespace {

struct X509Free {
    void operator()(X509* cert) const { X509_free(cert); }
};
struct KeyFree {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct BioFree {
    void operator()(BIO* bio) const { BIO_free(bio); }
};
using X509Ptr = std::unique_ptr<X509, X509Free>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;
using BioPtr = std::unique_ptr<BIO, BioFree>;

std::string OpenSslReason(unsigned long err) {
    const char* reason = ERR_reason_error_string(err);
    return reason ? reason : "error " + std::to_string(err);
}

BioPtr MemoryBio(const std::string& pem) {
    return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// Every certificate in a PEM bundle.
StatusOr<std::vector<X509Ptr>> ReadCertificates(const std::string& pem, const char* field) {
    ERR_clear_error();
    BioPtr bio = MemoryBio(pem);
    std::vector<X509Ptr> certs;
    while (X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr))
        certs.emplace_back(cert);
    const unsigned long err = ERR_peek_last_error();
    ERR_clear_error();
    const bool clean_end = err == 0 || (ERR_GET_LIB(err) == ERR_LIB_PEM && ERR_GET_REASON(err) == PEM_R_NO_START_LINE);
    if (certs.empty())
        return BadRequestError(std::string("TLS ") + field + ": no PEM certificate found");
    if (!clean_end)
        return BadRequestError(std::string("TLS ") + field + ": malformed PEM certificate: " + OpenSslReason(err));
    return certs;
}

StatusOr<KeyPtr> ReadKey(const std::string& pem) {
    ERR_clear_error();
    BioPtr bio = MemoryBio(pem);
    KeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    const unsigned long err = ERR_peek_last_error();
    ERR_clear_error();
    if (!key)
        return BadRequestError("TLS client_key_pem: no usable PEM private key: " + OpenSslReason(err));
    return key;
}

bool IsIpLiteral(const std::string& host) {
    unsigned char addr[16];
    return inet_pton(AF_INET, host.c_str(), addr) == 1 || inet_pton(AF_INET6, host.c_str(), addr) == 1;
}

int ExDataIndex() {
    static const int index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
    return index;
}

std::string NameText(const X509_NAME* name) {
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!bio || !name || X509_NAME_print_ex(bio.get(), name, 0, XN_FLAG_RFC2253) < 0)
        return "?";
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(size));
}

// "127.0.0.1, localhost": the DNS names and IP addresses a certificate is valid for.
std::string SubjectAltNames(X509* cert) {
    auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
    if (!names)
        return "";
    std::string out;
    for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
        const GENERAL_NAME* name = sk_GENERAL_NAME_value(names, i);
        std::string text;
        if (name->type == GEN_DNS) {
            text.assign(reinterpret_cast<const char*>(ASN1_STRING_get0_data(name->d.dNSName)),
                        static_cast<std::size_t>(ASN1_STRING_length(name->d.dNSName)));
        } else if (name->type == GEN_IPADD) {
            char buf[INET6_ADDRSTRLEN] = {};
            const int len = ASN1_STRING_length(name->d.iPAddress);
            const int family = len == 4 ? AF_INET : AF_INET6;
            if ((len == 4 || len == 16) && inet_ntop(family, ASN1_STRING_get0_data(name->d.iPAddress), buf, sizeof buf))
                text = buf;
        }
        if (!text.empty())
            out += (out.empty() ? "" : ", ") + text;
    }
    GENERAL_NAMES_free(names);
    return out;
}

std::string DescribeFailure(X509_STORE_CTX* store, const CppRestTls& tls) {
    const int err = X509_STORE_CTX_get_error(store);
    X509* cert = X509_STORE_CTX_get_current_cert(store);
    std::string text = X509_verify_cert_error_string(err);
    if (cert) {
        text += " (certificate \"" + NameText(X509_get_subject_name(cert)) + "\" issued by \"" +
                NameText(X509_get_issuer_name(cert)) + "\")";
    }
    switch (err) {
        case X509_V_ERR_HOSTNAME_MISMATCH:
        case X509_V_ERR_IP_ADDRESS_MISMATCH: {
            const std::string sans = cert ? SubjectAltNames(cert) : "";
            text += ": it is not valid for \"" + tls.VerifyName() + "\"";
            if (!sans.empty())
                text += ", only for " + sans;
            break;
        }
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
        case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            text += ": the server's certificate is not signed by a trusted CA (check the CA data, tls.ca_pem)";
            break;
        default:
            break;
    }
    return text;
}

// The per-certificate verdict is OpenSSL's own (cpprestsdk's would re-check the URL's host).
int KeepVerdict(int preverified, X509_STORE_CTX*) {
    return preverified;
}

// Replaces X509_verify_cert for the connection: the chain against the trusted CAs and the name.
int VerifyChain(X509_STORE_CTX* store, void* arg) {
    const auto* tls = static_cast<const CppRestTls*>(arg);
    X509_STORE_CTX_set_verify_cb(store, &KeepVerdict);
    X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(store);
    if (tls->VerifyNameIsIp()) {
        X509_VERIFY_PARAM_set1_ip_asc(param, tls->VerifyName().c_str());
    } else {
        X509_VERIFY_PARAM_set1_host(param, tls->VerifyName().data(), tls->VerifyName().size());
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    }
    const int ok = X509_verify_cert(store);
    if (ok <= 0)
        tls->RecordFailure(DescribeFailure(store, *tls));
    return ok > 0 ? 1 : 0;
}

// Sets SNI as the handshake starts (cpprestsdk's own SNI is off: it would send the URL's host).
void OnInfo(const SSL* ssl, int where, int) {
    if (!(where & SSL_CB_HANDSHAKE_START))
        return;
    const auto* tls = static_cast<const CppRestTls*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), ExDataIndex()));
    if (tls && !tls->SniName().empty())
        SSL_set_tlsext_host_name(const_cast<SSL*>(ssl), tls->SniName().c_str());
}

}  // namespace

struct CppRestTls::Material {
    std::vector<X509Ptr> cas;
    std::vector<X509Ptr> client_chain;  // leaf first
    KeyPtr client_key;
};

CppRestTls::~CppRestTls() = default;

StatusOr<std::shared_ptr<CppRestTls>> CppRestTls::Create(const TlsOptions& tls, const std::string& url_host) {
    std::shared_ptr<CppRestTls> out(new CppRestTls());
    out->material_ = std::make_unique<Material>();
    if (!tls.ca_pem.empty()) {
        CTRL_ASSIGN_OR_RETURN(out->material_->cas, ReadCertificates(tls.ca_pem, "ca_pem"));
    }
    if (tls.client_cert_pem.empty() != tls.client_key_pem.empty()) {
        return BadRequestError(tls.client_cert_pem.empty() ? "TLS client_key_pem is set without client_cert_pem"
                                                           : "TLS client_cert_pem is set without client_key_pem");
    }
    if (!tls.client_cert_pem.empty()) {
        CTRL_ASSIGN_OR_RETURN(out->material_->client_chain, ReadCertificates(tls.client_cert_pem, "client_cert_pem"));
        CTRL_ASSIGN_OR_RETURN(out->material_->client_key, ReadKey(tls.client_key_pem));
        if (X509_check_private_key(out->material_->client_chain.front().get(), out->material_->client_key.get()) != 1) {
            ERR_clear_error();
            return BadRequestError("TLS client_key_pem does not match the certificate in client_cert_pem");
        }
    }
    out->verify_ = !tls.insecure_skip_verify;
    out->verify_name_ = tls.server_name.empty() ? url_host : tls.server_name;
    out->verify_name_is_ip_ = IsIpLiteral(out->verify_name_);
    if (!out->verify_name_is_ip_)
        out->sni_name_ = out->verify_name_;
    return out;
}

void CppRestTls::Configure(boost::asio::ssl::context& context) const {
    SSL_CTX* ctx = context.native_handle();
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    if (!material_->cas.empty()) {
        X509_STORE* store = X509_STORE_new();
        for (const X509Ptr& ca : material_->cas)
            X509_STORE_add_cert(store, ca.get());
        SSL_CTX_set_cert_store(ctx, store);
    }
    if (!material_->client_chain.empty()) {
        SSL_CTX_use_certificate(ctx, material_->client_chain.front().get());
        for (std::size_t i = 1; i < material_->client_chain.size(); ++i)
            SSL_CTX_add1_chain_cert(ctx, material_->client_chain[i].get());
        SSL_CTX_use_PrivateKey(ctx, material_->client_key.get());
    }
    auto* self = const_cast<CppRestTls*>(this);
    SSL_CTX_set_ex_data(ctx, ExDataIndex(), self);
    SSL_CTX_set_info_callback(ctx, &OnInfo);
    if (verify_)
        SSL_CTX_set_cert_verify_callback(ctx, &VerifyChain, self);
    ERR_clear_error();
}

uint64_t CppRestTls::Failures() const {
    std::lock_guard lock(mu_);
    return failures_;
}

std::string CppRestTls::LastFailure() const {
    std::lock_guard lock(mu_);
    return last_failure_;
}

void CppRestTls::RecordFailure(std::string what) const {
    std::lock_guard lock(mu_);
    ++failures_;
    last_failure_ = std::move(what);
}

}  // namespace ctrl::rest::internal::cpprest
