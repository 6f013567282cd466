// The tile_buf keys of a tile's memory and layout and the rules that tie
// the layout to the memory and shape (types_layout.cc), for types.cc's
// parser.
#ifndef PTO_PROGRAM_IR_TYPES_LAYOUT_H_
#define PTO_PROGRAM_IR_TYPES_LAYOUT_H_

#include <stdint.h>

#include <string>
#include <string_view>

#include "program/ir/types.h"

namespace pto {
namespace program {

// A decimal integer, the whole of s (types.cc).
bool ParseInt(std::string_view s, int64_t* out);
// loc=, blayout=, slayout=, fractal=, compact= into *t; false with the
// sentence in *what for a bad value or an unknown key.
bool LayoutKey(std::string_view key, std::string_view value, Type* t, std::string* what);
// Whether t's layout suits its memory and shape (compact=2 included).
bool CheckLayout(const Type& t, std::string* what);

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_IR_TYPES_LAYOUT_H_
