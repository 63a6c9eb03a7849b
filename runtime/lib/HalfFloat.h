// HalfFloat.h: f16 and bf16 to and from f32, rounding to nearest even.
#ifndef GRAPHRT_HALFFLOAT_H
#define GRAPHRT_HALFFLOAT_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace graphrt {

inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

/// A bf16 is the upper half of an f32: widening is exact.
inline float bf16ToFloat(uint16_t h) { return bitsFloat(uint32_t(h) << 16); }

inline uint16_t floatToBf16(float f) {
  uint32_t u = floatBits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) {
    return static_cast<uint16_t>((u >> 16) | 0x40); // a quiet NaN stays NaN
  }
  // Adding 0x7fff plus the lowest kept bit rounds ties to even.
  u += 0x7fffu + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}

inline float f16ToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0) {
    // Zero or subnormal: mant units of 2^-24, exact in f32.
    float v = std::ldexp(static_cast<float>(mant), -24);
    return bitsFloat(floatBits(v) | sign);
  }
  if (exp == 31) {
    return bitsFloat(sign | 0x7f800000u | (mant << 13));
  }
  return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

inline uint16_t floatToF16(float f) {
  uint32_t u = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000);
  uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u) {
    return sign | 0x7e00; // NaN
  }
  // 65520 (halfway between 65504, the largest f16, and 2^16) and up round
  // to infinity.
  if (a >= 0x477ff000u) {
    return sign | 0x7c00;
  }
  if (a < 0x38800000u) {
    // Below 2^-14: a subnormal f16 (or zero) in units of 2^-24. Scaling by
    // a power of two is exact; nearbyint rounds ties to even in the default
    // rounding mode. 0x400 (rounded up to 2^-14) is the smallest normal.
    float scaled = std::ldexp(bitsFloat(a), 24);
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  // Rebias the exponent (127 -> 15) and round the 13 dropped bits to even;
  // a carry out of the mantissa moves into the exponent as it should.
  a += 0xc8000000u + 0xfffu + ((a >> 13) & 1);
  return sign | static_cast<uint16_t>(a >> 13);
}

} // namespace graphrt

#endif // GRAPHRT_HALFFLOAT_H
