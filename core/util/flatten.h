#pragma once
// GAPSCOPE_FLATTEN marks a function whose every call is inlined (GCC's
// `flatten`): for the loops that take each of millions of items through
// small steps, which out of line cost as much as the work. Only in
// optimised builds without a sanitizer: there, inlining everything a loop
// reaches (the standard library's instrumented code included) takes the
// compiler many minutes and gigabytes for one file.

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define GAPSCOPE_NO_FLATTEN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__OPTIMIZE__)
#define GAPSCOPE_NO_FLATTEN 1
#endif

#if defined(GAPSCOPE_NO_FLATTEN) || !defined(__GNUC__)
#define GAPSCOPE_FLATTEN
#else
#define GAPSCOPE_FLATTEN [[gnu::flatten]]
#endif
