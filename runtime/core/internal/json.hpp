#pragma once

// The JSON document behind ctrl::Object, for the project's own layers (rest decoder, cache). Public
// headers never include this file: RapidJSON stays inside runtime/*/.

#include <rapidjson/allocators.h>
#include <rapidjson/document.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "ctrl/core/status.hpp"

namespace ctrl::internal {

// A RapidJSON allocator that keeps one object's values in a few chunks and frees them all at once.
// Chunks start small (so a condition or a label map copied out of a Pod costs ~256 bytes, not the
// 64 KB of RapidJSON's default pool) and double up to a maximum, 4 KB by default, which bounds
// the slack per cached object; a scratch document for a whole List body may grow bigger chunks. A block too large for
// the growing chunks (a long annotation, a big member array) gets a chunk of its own behind the current one, so the
// current chunk's free space is not abandoned. Free is a no-op; memory returns when the allocator is destroyed.
class PoolAllocator {
  public:
    static constexpr bool kNeedFree = false;
    static constexpr std::size_t kFirstChunkBytes = 256;
    static constexpr std::size_t kMaxChunkBytes = 4096;

    explicit PoolAllocator(std::size_t max_chunk_bytes = kMaxChunkBytes) : max_chunk_bytes_(max_chunk_bytes) {}
    ~PoolAllocator() {
        while (head_ != nullptr) {
            Chunk* next = head_->next;
            std::free(head_);
            head_ = next;
        }
    }
    PoolAllocator(const PoolAllocator&) = delete;
    PoolAllocator& operator=(const PoolAllocator&) = delete;

    void* Malloc(std::size_t size) {
        if (size == 0)
            return nullptr;
        size = Align(size);
        if (head_ == nullptr || head_->used + size > head_->capacity) {
            if (size > next_capacity_ / 2)
                return AddChunk(size, /*make_current=*/false)->Data();
            AddChunk(next_capacity_, /*make_current=*/true);
            if (next_capacity_ < max_chunk_bytes_)
                next_capacity_ *= 2;
        }
        void* block = head_->Data() + head_->used;
        head_->used += size;
        return block;
    }

    void* Realloc(void* original, std::size_t original_size, std::size_t new_size) {
        if (original == nullptr)
            return Malloc(new_size);
        if (new_size == 0)
            return nullptr;
        original_size = Align(original_size);
        new_size = Align(new_size);
        if (original_size >= new_size)
            return original;
        // The last block of the current chunk grows in place when there is room.
        if (static_cast<char*>(original) + original_size == head_->Data() + head_->used &&
            head_->used + (new_size - original_size) <= head_->capacity) {
            head_->used += new_size - original_size;
            return original;
        }
        void* block = Malloc(new_size);
        if (block != nullptr)
            std::memcpy(block, original, original_size);
        return block;
    }

    static void Free(void* /*block*/) {}

    // Bytes reserved from the heap, headers excluded: what the object costs.
    std::size_t Capacity() const {
        std::size_t total = 0;
        for (const Chunk* c = head_; c != nullptr; c = c->next)
            total += c->capacity;
        return total;
    }

  private:
    struct Chunk {
        Chunk* next;
        std::size_t capacity;
        std::size_t used;
        char* Data() { return reinterpret_cast<char*>(this) + sizeof(Chunk); }
    };
    static_assert(sizeof(Chunk) % 8 == 0);

    static std::size_t Align(std::size_t size) { return (size + 7) & ~std::size_t{7}; }

    // A current chunk receives the following small blocks; another one is linked behind the
    // current chunk and holds just its one block.
    Chunk* AddChunk(std::size_t capacity, bool make_current) {
        auto* chunk = static_cast<Chunk*>(std::malloc(sizeof(Chunk) + capacity));
        if (chunk == nullptr)
            std::abort();  // RapidJSON cannot report allocation failure either
        chunk->capacity = capacity;
        chunk->used = make_current ? 0 : capacity;
        if (make_current || head_ == nullptr) {
            chunk->next = head_;
            head_ = chunk;
        } else {
            chunk->next = head_->next;
            head_->next = chunk;
        }
        return chunk;
    }

    std::size_t max_chunk_bytes_;
    Chunk* head_ = nullptr;
    std::size_t next_capacity_ = kFirstChunkBytes;
};

using JsonValue = rapidjson::GenericValue<rapidjson::UTF8<>, PoolAllocator>;

// One JSON document and the pool its values live in. Not movable: the document points at its pool
// (ctrl::Object moves a pointer to it). Values from another JsonDocument are deep-copied in with
// CopyFrom / JsonValue(other, allocator), never assigned, and every string in it is owned by the pool
// (no StringRef to memory that could go away: CopyFrom copies a StringRef as a pointer).
struct JsonDocument {
    using Document = rapidjson::GenericDocument<rapidjson::UTF8<>, PoolAllocator>;

    // An empty object. A document parsed from a large body and then discarded may ask for larger
    // chunks than a cached object's.
    explicit JsonDocument(std::size_t max_chunk_bytes = PoolAllocator::kMaxChunkBytes)
        : pool(max_chunk_bytes), doc(rapidjson::kObjectType, &pool, kParseStackBytes, &StackAllocator()) {}
    JsonDocument(const JsonDocument&) = delete;
    JsonDocument& operator=(const JsonDocument&) = delete;

    JsonValue& Root() { return doc; }
    const JsonValue& Root() const { return doc; }
    PoolAllocator& Allocator() { return pool; }

    // The parse stack's allocator: stateless, so one is shared instead of one heap block per document.
    static rapidjson::CrtAllocator& StackAllocator() {
        static rapidjson::CrtAllocator allocator;
        return allocator;
    }
    static constexpr std::size_t kParseStackBytes = 1024;

    PoolAllocator pool;  // declared first: it outlives doc
    Document doc;
};

// Deepest nesting Parse accepts; it bounds the recursion of writing, copying and comparing.
inline constexpr int kMaxJsonDepth = 1000;

// Replaces into's content with the parsed text. Numbers keep full precision (integers that fit
// int64/uint64 exactly; other numbers as the nearest double); UTF-8 is validated; nothing may follow
// the value. Malformed input is BadRequest "invalid JSON at byte offset N: <reason>"; into is then {}.
// into should be fresh: its pool keeps what it held before.
Status ParseJson(std::string_view json, JsonDocument& into);
// Compact JSON text of a value.
std::string WriteJson(const JsonValue& value);
// "a string", "an integer", "a float", "an object", ...: for messages such as "x is a string, not
// an integer".
std::string_view JsonTypeName(const JsonValue& value);
// A string value owned by allocator's pool.
JsonValue MakeJsonString(std::string_view s, PoolAllocator& allocator);
// The member named key, or nullptr. value must be an object.
const JsonValue* FindJsonMember(const JsonValue& value, std::string_view key);
JsonValue* FindJsonMember(JsonValue& value, std::string_view key);
// A string member's text, or empty when it is missing or not a string. value must be an object.
std::string_view JsonStringMember(const JsonValue& value, std::string_view key);
// Sets obj[key] = value, moving from value; an existing member keeps its place. obj must be an
// object; value must live in allocator's pool.
void SetJsonMember(JsonValue& obj, std::string_view key, JsonValue& value, PoolAllocator& allocator);
inline void SetJsonMember(JsonValue& obj, std::string_view key, JsonValue&& value, PoolAllocator& allocator) {
    SetJsonMember(obj, key, value, allocator);
}
// Removes obj[key], keeping the other members in order; returns whether it was there. obj must be
// an object.
bool EraseJsonMember(JsonValue& obj, std::string_view key);
// A string value's text. value must be a string.
inline std::string_view JsonView(const JsonValue& value) {
    return {value.GetString(), value.GetStringLength()};
}

}  // namespace ctrl::internal
