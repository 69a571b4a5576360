#include "ctrl/rest/internal/cpprest_body_sink.hpp"

#include <ios>
#include <utility>

namespace ctrl::rest::internal::cpprest {
namespace {

using Base = concurrency::streams::details::streambuf_state_manager<uint8_t>;

// Everything a reader or a seeker would use answers "nothing here": cpprestsdk only writes.
class BodySink final : public Base {
  public:
    explicit BodySink(std::shared_ptr<BodyQueue> queue) : Base(std::ios_base::out), queue_(std::move(queue)) {}

    bool can_seek() const override { return false; }
    bool has_size() const override { return false; }
    size_t buffer_size(std::ios_base::openmode) const override { return 0; }
    void set_buffer_size(size_t, std::ios_base::openmode) override {}
    size_t in_avail() const override { return 0; }
    pos_type getpos(std::ios_base::openmode) const override { return static_cast<pos_type>(traits::eof()); }
    pos_type seekpos(pos_type, std::ios_base::openmode) override { return static_cast<pos_type>(traits::eof()); }
    pos_type seekoff(off_type, std::ios_base::seekdir, std::ios_base::openmode) override {
        return static_cast<pos_type>(traits::eof());
    }
    bool acquire(uint8_t*& ptr, size_t& count) override {
        ptr = nullptr;
        count = 0;
        return false;
    }
    void release(uint8_t*, size_t) override {}

  protected:
    pplx::task<int_type> _putc(uint8_t ch) override {
        return queue_->Push(&ch, 1).then([ch](size_t) { return static_cast<int_type>(ch); });
    }
    pplx::task<size_t> _putn(const uint8_t* ptr, size_t count) override { return queue_->Push(ptr, count); }

    pplx::task<int_type> _bumpc() override { return pplx::task_from_result<int_type>(traits::eof()); }
    int_type _sbumpc() override { return traits::eof(); }
    pplx::task<int_type> _getc() override { return pplx::task_from_result<int_type>(traits::eof()); }
    int_type _sgetc() override { return traits::eof(); }
    pplx::task<int_type> _nextc() override { return pplx::task_from_result<int_type>(traits::eof()); }
    pplx::task<int_type> _ungetc() override { return pplx::task_from_result<int_type>(traits::eof()); }
    pplx::task<size_t> _getn(uint8_t*, size_t) override { return pplx::task_from_result<size_t>(0); }
    size_t _scopy(uint8_t*, size_t) override { return 0; }
    pplx::task<bool> _sync() override { return pplx::task_from_result(true); }
    uint8_t* _alloc(size_t) override { return nullptr; }
    void _commit(size_t) override {}

  private:
    std::shared_ptr<BodyQueue> queue_;
};

}  // namespace

concurrency::streams::ostream NewBodySink(std::shared_ptr<BodyQueue> queue) {
    std::shared_ptr<concurrency::streams::details::basic_streambuf<uint8_t>> sink =
        std::make_shared<BodySink>(std::move(queue));
    return concurrency::streams::ostream(concurrency::streams::streambuf<uint8_t>(sink));
}

}  // namespace ctrl::rest::internal::cpprest
