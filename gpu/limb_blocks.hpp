// Limb matrices moved block by block: how the GPU's multi-modular pipeline (gpu/crt.hpp) takes
// its operands and hands back its result without a whole host-side copy of either.
//
// A block is the coefficients [first, first + size) of a limb matrix of some width, in block
// limb-major order: limb l of coefficient first + b at limbs[l * size + b], its sign at
// negative[b]. The GPU asks a LimbSource to write each block into pinned memory (while the block
// before it is on its way to the device) and hands each block of the result to a LimbSink (while
// the next one comes down). pull_matrix and push_matrix do the same on the host, with blocks of
// any size, so that the CPU's tests run the callers' block code (ProductEngine::HostKernels).
//
// Host code only; nothing here names a CUDA, FLINT or GMP type.
#pragma once

#include "gpu/crt_words.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace cas::gpu {

template <class Word, class Sign>
struct BasicLimbBlock {
    std::size_t first = 0, size = 0, width = 0;
    Word* limbs = nullptr;    // width * size words
    Sign* negative = nullptr;  // size flags; 1 for a negative coefficient
};
using LimbBlock = BasicLimbBlock<std::uint64_t, std::uint32_t>;                  // to be filled
using ConstLimbBlock = BasicLimbBlock<const std::uint64_t, const std::uint32_t>;  // to be read

// An operand of count coefficients of at most width limbs; write(block) fills one block.
struct LimbSource {
    std::size_t count = 0, width = 0;
    std::function<void(const LimbBlock&)> write;
};
// Receives the result block by block, in order of first.
using LimbSink = std::function<void(const ConstLimbBlock&)>;

// A source that copies its blocks out of a whole matrix (which must outlive it).
inline LimbSource source_of(const crt::LimbMatrix& m)
{
    return {m.count, m.width, [&m](const LimbBlock& b) {
                for (std::size_t l = 0; l < b.width; ++l)
                    std::copy_n(m.limbs.data() + l * m.count + b.first, b.size, b.limbs + l * b.size);
                std::copy_n(m.negative.data() + b.first, b.size, b.negative);
            }};
}

// A sink that copies the blocks into m, which it first sizes for count coefficients of `width`.
inline LimbSink sink_into(crt::LimbMatrix& m, std::size_t count, std::size_t width)
{
    m.count = count;
    m.width = width;
    m.limbs.assign(count * width, 0);
    m.negative.assign(count, 0);
    return [&m](const ConstLimbBlock& b) {
        for (std::size_t l = 0; l < b.width; ++l)
            std::copy_n(b.limbs + l * b.size, b.size, m.limbs.data() + l * m.count + b.first);
        std::copy_n(b.negative, b.size, m.negative.data() + b.first);
    };
}

// Every block of `source`, at most `block` coefficients each, written into one host buffer and
// handed to `sink`: the host's picture of what the GPU does through its pinned buffers.
inline void pass_blocks(const LimbSource& source, std::size_t block, const LimbSink& sink)
{
    std::vector<std::uint64_t> limbs(std::min(block, source.count) * source.width);
    std::vector<std::uint32_t> negative(std::min(block, source.count));
    for (std::size_t first = 0; first < source.count; first += block) {
        const std::size_t size = std::min(block, source.count - first);
        source.write(LimbBlock{first, size, source.width, limbs.data(), negative.data()});
        sink(ConstLimbBlock{first, size, source.width, limbs.data(), negative.data()});
    }
}

// The whole matrix of `source`, pulled in blocks of at most `block` coefficients.
inline crt::LimbMatrix pull_matrix(const LimbSource& source, std::size_t block)
{
    crt::LimbMatrix m;
    pass_blocks(source, block, sink_into(m, source.count, source.width));
    return m;
}

// m handed to `sink` in blocks of at most `block` coefficients.
inline void push_matrix(const crt::LimbMatrix& m, std::size_t block, const LimbSink& sink)
{
    pass_blocks(source_of(m), block, sink);
}

}  // namespace cas::gpu
