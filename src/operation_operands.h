/* The roles of operations.def's Operands column, for C (the tests) and C++
 * (the table). A row lists its tile operands in the C function's order, each
 * as Role(name):
 *   Dst(name)          the destination, always first (dst)
 *   Src(name)          a source tile: the first is Operands::src0, the next
 *                      src1, up to src4
 *   OptionalSrc(name)  a source tile the C function lets be NULL, as Src
 *                      (tmov_fp_ex's fp): the bindings' default for it is
 *                      none (Python's None)
 *   Tmp(name)          a required scratch tile (Operands::tmp)
 *   OptionalTmp(name)  a scratch tile that may be NULL (Operands::tmp)
 *   Dst1(name)         a second destination, in Operands::tmp's place: the
 *                      row's flag PTO_TRAIT_SecondDst
 *   SrcOnly(name)      the one tile of a row with no tile result (tgetval's
 *                      src), in dst's place first: Operands::src0, the row's
 *                      flag PTO_TRAIT_NoDst (its result is an attributes.def
 *                      argument of the role Out)
 *   Table(name)        a table in the caller's memory that the row reads
 *                      (mgather's): three C parameters, `const void *name`,
 *                      `size_t name_elements` and `pto_dtype name_dtype`
 *                      (OperandsExt::table), in its place among the tiles; the
 *                      row's flag PTO_TRAIT_Table
 *   TableDst(name)     a table in the caller's memory that the row writes
 *                      (mscatter's), in dst's place first: `void *name` and
 *                      the same two; the row's flags PTO_TRAIT_Table and
 *                      PTO_TRAIT_NoDst (no tile result)
 *   Words2(name)       two 32-bit words the row reads (trandom's key):
 *   Words4(name)       or four (its counter): `uint32_t name0`, `uint32_t
 *                      name1` ... after the tiles, before the attribute's
 *                      arguments, stored in order in OperandsExt::words; the
 *                      bindings take an array of that many words
 *   Aux(name)          a further destination the row writes in a shape of
 *                      its own (tquant_hif4's exp), after the sources in
 *                      tmp's place (no tmp with it): OperandsExt::aux, in
 *                      order; the bindings take a writable tile
 *   OptionalAux(name)  one the C function lets be NULL, as Aux (its max,
 *                      scaling: not written then): the bindings' default
 *                      for it is none
 *   Config(name, CType, (fields))
 *                      a configuration struct the row reads (timg2col's
 *                      pto_img2col_config), last: `const CType *name`,
 *                      Operands::config, NULL refused by the row's check;
 *                      fields are the struct's fields the row reads, each
 *                      `field` (required) or `field = default`, the Python
 *                      call's keywords in its place, in that order (the Go,
 *                      Java and Rust calls take the whole struct, a copy
 *                      of it generated in each; its other fields are set
 *                      by src/settings.def's rows of the same Config)
 * PTO_OPERANDS_EACH(M, list) expands M(position, Role, name) for each
 * operand of a row's list, position counting from 0 (dst). The helpers
 * below are what the table and the tests read from a list. */
#ifndef PTO_OPERATION_OPERANDS_H_
#define PTO_OPERATION_OPERANDS_H_

#define PTO_OPERANDS_UNPAREN_(...) __VA_ARGS__
#define PTO_OPERANDS_CAT_(a, b) PTO_OPERANDS_CAT2_(a, b)
#define PTO_OPERANDS_CAT2_(a, b) a##b
#define PTO_OPERANDS_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, n, ...) n
#define PTO_OPERANDS_COUNT(...) PTO_OPERANDS_COUNT_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)

/* Role(name) as the two arguments Role, name. */
#define PTO_OPERANDS_SPLIT_Dst(name) Dst, name
#define PTO_OPERANDS_SPLIT_Src(name) Src, name
#define PTO_OPERANDS_SPLIT_OptionalSrc(name) Src, name
#define PTO_OPERANDS_SPLIT_Tmp(name) Tmp, name
#define PTO_OPERANDS_SPLIT_OptionalTmp(name) OptionalTmp, name
#define PTO_OPERANDS_SPLIT_Dst1(name) Dst1, name
#define PTO_OPERANDS_SPLIT_SrcOnly(name) SrcOnly, name
#define PTO_OPERANDS_SPLIT_Table(name) Table, name
#define PTO_OPERANDS_SPLIT_TableDst(name) TableDst, name
#define PTO_OPERANDS_SPLIT_Words2(name) Words2, name
#define PTO_OPERANDS_SPLIT_Words4(name) Words4, name
#define PTO_OPERANDS_SPLIT_Aux(name) Aux, name
#define PTO_OPERANDS_SPLIT_OptionalAux(name) Aux, name
/* A Config's name and type travel as one parenthesised pair. */
#define PTO_OPERANDS_SPLIT_Config(name, type, fields) Config, (name, type)
#define PTO_OPERANDS_CONFIG_PARAM_(name, type) const type* name
#define PTO_OPERANDS_CONFIG_NAME_(name, type) name
#define PTO_OPERANDS_APPLY_(M, position, ...) PTO_OPERANDS_APPLY2_(M, position, __VA_ARGS__)
#define PTO_OPERANDS_APPLY2_(M, position, role, name) M(position, role, name)
#define PTO_OPERANDS_ONE_(M, position, item) \
  PTO_OPERANDS_APPLY_(M, position, PTO_OPERANDS_SPLIT_##item)

#define PTO_OPERANDS_EACH_1(M, a) PTO_OPERANDS_ONE_(M, 0, a)
#define PTO_OPERANDS_EACH_2(M, a, b) PTO_OPERANDS_EACH_1(M, a) PTO_OPERANDS_ONE_(M, 1, b)
#define PTO_OPERANDS_EACH_3(M, a, b, c) PTO_OPERANDS_EACH_2(M, a, b) PTO_OPERANDS_ONE_(M, 2, c)
#define PTO_OPERANDS_EACH_4(M, a, b, c, d) \
  PTO_OPERANDS_EACH_3(M, a, b, c) PTO_OPERANDS_ONE_(M, 3, d)
#define PTO_OPERANDS_EACH_5(M, a, b, c, d, e) \
  PTO_OPERANDS_EACH_4(M, a, b, c, d) PTO_OPERANDS_ONE_(M, 4, e)
#define PTO_OPERANDS_EACH_6(M, a, b, c, d, e, f) \
  PTO_OPERANDS_EACH_5(M, a, b, c, d, e) PTO_OPERANDS_ONE_(M, 5, f)
#define PTO_OPERANDS_EACH_7(M, a, b, c, d, e, f, g) \
  PTO_OPERANDS_EACH_6(M, a, b, c, d, e, f) PTO_OPERANDS_ONE_(M, 6, g)
#define PTO_OPERANDS_EACH_8(M, a, b, c, d, e, f, g, h) \
  PTO_OPERANDS_EACH_7(M, a, b, c, d, e, f, g) PTO_OPERANDS_ONE_(M, 7, h)
#define PTO_OPERANDS_CALL_(f, args) f args
#define PTO_OPERANDS_EACH(M, list)                                              \
  PTO_OPERANDS_CALL_(PTO_OPERANDS_CAT_(PTO_OPERANDS_EACH_, PTO_OPERANDS_COUNT list), \
                     (M, PTO_OPERANDS_UNPAREN_ list))

/* The position of the k-th source among Operands' source slots: a source at
 * position p (dst being 0) is src<p-1> (the table's C function stores its
 * sources in order instead, past the table: PTO_OPERANDS_STORE). */
#define PTO_OPERANDS_SLOT_1 src0
#define PTO_OPERANDS_SLOT_2 src1
#define PTO_OPERANDS_SLOT_3 src2
#define PTO_OPERANDS_SLOT_4 src3
#define PTO_OPERANDS_SLOT_5 src4
#define PTO_OPERANDS_SLOT(position) PTO_OPERANDS_CAT_(PTO_OPERANDS_SLOT_, position)

/* How many sources: a constant expression. */
#define PTO_OPERANDS_IS_SOURCE_Dst 0
#define PTO_OPERANDS_IS_SOURCE_Src 1
#define PTO_OPERANDS_IS_SOURCE_Tmp 0
#define PTO_OPERANDS_IS_SOURCE_OptionalTmp 0
#define PTO_OPERANDS_IS_SOURCE_Dst1 0
#define PTO_OPERANDS_IS_SOURCE_SrcOnly 1
#define PTO_OPERANDS_IS_SOURCE_Table 0
#define PTO_OPERANDS_IS_SOURCE_TableDst 0
#define PTO_OPERANDS_IS_SOURCE_Words2 0
#define PTO_OPERANDS_IS_SOURCE_Words4 0
#define PTO_OPERANDS_IS_SOURCE_Aux 0
#define PTO_OPERANDS_IS_SOURCE_Config 0
#define PTO_OPERANDS_SOURCE_ONE_(position, role, name) +PTO_OPERANDS_IS_SOURCE_##role
#define PTO_OPERANDS_SOURCE_COUNT(list) (0 PTO_OPERANDS_EACH(PTO_OPERANDS_SOURCE_ONE_, list))

/* How many of the sources are OptionalSrc ones, NULL allowed (the last
 * ones: a program's ins( ) may leave them out), counted on the list as
 * written (PTO_OPERANDS_EACH sees an OptionalSrc as a Src). */
#define PTO_OPERANDS_OPTIONAL_Dst(name)
#define PTO_OPERANDS_OPTIONAL_Src(name)
#define PTO_OPERANDS_OPTIONAL_OptionalSrc(name) +1
#define PTO_OPERANDS_OPTIONAL_Tmp(name)
#define PTO_OPERANDS_OPTIONAL_OptionalTmp(name)
#define PTO_OPERANDS_OPTIONAL_Dst1(name)
#define PTO_OPERANDS_OPTIONAL_SrcOnly(name)
#define PTO_OPERANDS_OPTIONAL_Table(name)
#define PTO_OPERANDS_OPTIONAL_TableDst(name)
#define PTO_OPERANDS_OPTIONAL_Words2(name)
#define PTO_OPERANDS_OPTIONAL_Words4(name)
#define PTO_OPERANDS_OPTIONAL_Aux(name)
#define PTO_OPERANDS_OPTIONAL_OptionalAux(name)
#define PTO_OPERANDS_OPTIONAL_Config(name, type, fields)
#define PTO_OPERANDS_OPTIONAL_EACH_1(a) PTO_OPERANDS_OPTIONAL_##a
#define PTO_OPERANDS_OPTIONAL_EACH_2(a, b) PTO_OPERANDS_OPTIONAL_EACH_1(a) PTO_OPERANDS_OPTIONAL_##b
#define PTO_OPERANDS_OPTIONAL_EACH_3(a, b, c) PTO_OPERANDS_OPTIONAL_EACH_2(a, b) PTO_OPERANDS_OPTIONAL_##c
#define PTO_OPERANDS_OPTIONAL_EACH_4(a, b, c, d) PTO_OPERANDS_OPTIONAL_EACH_3(a, b, c) PTO_OPERANDS_OPTIONAL_##d
#define PTO_OPERANDS_OPTIONAL_EACH_5(a, b, c, d, e) PTO_OPERANDS_OPTIONAL_EACH_4(a, b, c, d) PTO_OPERANDS_OPTIONAL_##e
#define PTO_OPERANDS_OPTIONAL_EACH_6(a, b, c, d, e, f) PTO_OPERANDS_OPTIONAL_EACH_5(a, b, c, d, e) PTO_OPERANDS_OPTIONAL_##f
#define PTO_OPERANDS_OPTIONAL_EACH_7(a, b, c, d, e, f, g) PTO_OPERANDS_OPTIONAL_EACH_6(a, b, c, d, e, f) PTO_OPERANDS_OPTIONAL_##g
#define PTO_OPERANDS_OPTIONAL_EACH_8(a, b, c, d, e, f, g, h) PTO_OPERANDS_OPTIONAL_EACH_7(a, b, c, d, e, f, g) PTO_OPERANDS_OPTIONAL_##h
#define PTO_OPERANDS_OPTIONAL_SOURCE_COUNT(list)                                            \
  (0 PTO_OPERANDS_CALL_(PTO_OPERANDS_CAT_(PTO_OPERANDS_OPTIONAL_EACH_, PTO_OPERANDS_COUNT list), \
                        (PTO_OPERANDS_UNPAREN_ list)))

/* The sources' names, each a string literal followed by a comma. */
#define PTO_OPERANDS_NAME_Dst(name)
#define PTO_OPERANDS_NAME_Src(name) #name,
#define PTO_OPERANDS_NAME_Tmp(name)
#define PTO_OPERANDS_NAME_OptionalTmp(name)
#define PTO_OPERANDS_NAME_Dst1(name)
#define PTO_OPERANDS_NAME_SrcOnly(name) #name,
#define PTO_OPERANDS_NAME_Table(name)
#define PTO_OPERANDS_NAME_TableDst(name)
#define PTO_OPERANDS_NAME_Words2(name)
#define PTO_OPERANDS_NAME_Words4(name)
#define PTO_OPERANDS_NAME_Aux(name)
#define PTO_OPERANDS_NAME_Config(name)
#define PTO_OPERANDS_NAME_ONE_(position, role, name) PTO_OPERANDS_NAME_##role(name)
#define PTO_OPERANDS_SOURCE_NAMES(list) PTO_OPERANDS_EACH(PTO_OPERANDS_NAME_ONE_, list)

/* The words' names in order, each a string literal followed by a comma
 * (Words2(key): "key0", "key1"): what a program's text and its refusals
 * call them. */
#define PTO_OPERANDS_WORD_NAMES_Dst(name)
#define PTO_OPERANDS_WORD_NAMES_Src(name)
#define PTO_OPERANDS_WORD_NAMES_Tmp(name)
#define PTO_OPERANDS_WORD_NAMES_OptionalTmp(name)
#define PTO_OPERANDS_WORD_NAMES_Dst1(name)
#define PTO_OPERANDS_WORD_NAMES_SrcOnly(name)
#define PTO_OPERANDS_WORD_NAMES_Table(name)
#define PTO_OPERANDS_WORD_NAMES_TableDst(name)
#define PTO_OPERANDS_WORD_NAMES_Words2(name) #name "0", #name "1",
#define PTO_OPERANDS_WORD_NAMES_Words4(name) #name "0", #name "1", #name "2", #name "3",
#define PTO_OPERANDS_WORD_NAMES_Aux(name)
#define PTO_OPERANDS_WORD_NAMES_Config(name)
#define PTO_OPERANDS_WORD_NAME_ONE_(position, role, name) PTO_OPERANDS_WORD_NAMES_##role(name)
#define PTO_OPERANDS_WORD_NAMES(list) PTO_OPERANDS_EACH(PTO_OPERANDS_WORD_NAME_ONE_, list)

/* The Aux / OptionalAux operands' names in order, each a string literal
 * followed by a comma: what a program's outs( ) lists after dst. */
#define PTO_OPERANDS_AUX_NAMES_Dst(name)
#define PTO_OPERANDS_AUX_NAMES_Src(name)
#define PTO_OPERANDS_AUX_NAMES_Tmp(name)
#define PTO_OPERANDS_AUX_NAMES_OptionalTmp(name)
#define PTO_OPERANDS_AUX_NAMES_Dst1(name)
#define PTO_OPERANDS_AUX_NAMES_SrcOnly(name)
#define PTO_OPERANDS_AUX_NAMES_Table(name)
#define PTO_OPERANDS_AUX_NAMES_TableDst(name)
#define PTO_OPERANDS_AUX_NAMES_Words2(name)
#define PTO_OPERANDS_AUX_NAMES_Words4(name)
#define PTO_OPERANDS_AUX_NAMES_Aux(name) #name,
#define PTO_OPERANDS_AUX_NAMES_Config(name)
#define PTO_OPERANDS_AUX_NAME_ONE_(position, role, name) PTO_OPERANDS_AUX_NAMES_##role(name)
#define PTO_OPERANDS_AUX_NAMES(list) PTO_OPERANDS_EACH(PTO_OPERANDS_AUX_NAME_ONE_, list)

/* The tmp slot's role as 0 (none), 1 (optional) or 2 (required: a scratch
 * tile or a second destination), the order of TmpRole and op_tmp_role. */
#define PTO_OPERANDS_TMP_Dst 0
#define PTO_OPERANDS_TMP_Src 0
#define PTO_OPERANDS_TMP_Tmp 2
#define PTO_OPERANDS_TMP_OptionalTmp 1
#define PTO_OPERANDS_TMP_Dst1 2
#define PTO_OPERANDS_TMP_SrcOnly 0
#define PTO_OPERANDS_TMP_Table 0
#define PTO_OPERANDS_TMP_TableDst 0
#define PTO_OPERANDS_TMP_Words2 0
#define PTO_OPERANDS_TMP_Words4 0
#define PTO_OPERANDS_TMP_Aux 0
#define PTO_OPERANDS_TMP_Config 0
#define PTO_OPERANDS_TMP_ONE_(position, role, name) +PTO_OPERANDS_TMP_##role
#define PTO_OPERANDS_TMP(list) (0 PTO_OPERANDS_EACH(PTO_OPERANDS_TMP_ONE_, list))

/* A Table operand's position in the list (dst 0): where text's ins( ) gives
 * it among the sources; 0 for a row without one (a TableDst is in dst's
 * place). A constant expression. */
#define PTO_OPERANDS_TABLE_POSITION_Table(position) +(position)
#define PTO_OPERANDS_TABLE_POSITION_Dst(position)
#define PTO_OPERANDS_TABLE_POSITION_Src(position)
#define PTO_OPERANDS_TABLE_POSITION_Tmp(position)
#define PTO_OPERANDS_TABLE_POSITION_OptionalTmp(position)
#define PTO_OPERANDS_TABLE_POSITION_Dst1(position)
#define PTO_OPERANDS_TABLE_POSITION_SrcOnly(position)
#define PTO_OPERANDS_TABLE_POSITION_TableDst(position)
#define PTO_OPERANDS_TABLE_POSITION_Words2(position)
#define PTO_OPERANDS_TABLE_POSITION_Words4(position)
#define PTO_OPERANDS_TABLE_POSITION_Aux(position)
#define PTO_OPERANDS_TABLE_POSITION_Config(position)
#define PTO_OPERANDS_TABLE_POSITION_ONE_(position, role, name) PTO_OPERANDS_TABLE_POSITION_##role(position)
#define PTO_OPERANDS_TABLE_POSITION(list) (0 PTO_OPERANDS_EACH(PTO_OPERANDS_TABLE_POSITION_ONE_, list))

/* The flags the list implies (PTO_TRAIT_SecondDst for a Dst1), ORed to the
 * Traits column's: a constant expression. */
#define PTO_OPERANDS_TRAIT_Dst 0u
#define PTO_OPERANDS_TRAIT_Src 0u
#define PTO_OPERANDS_TRAIT_Tmp 0u
#define PTO_OPERANDS_TRAIT_OptionalTmp 0u
#define PTO_OPERANDS_TRAIT_Dst1 PTO_TRAIT_SecondDst
#define PTO_OPERANDS_TRAIT_SrcOnly PTO_TRAIT_NoDst
#define PTO_OPERANDS_TRAIT_Table PTO_TRAIT_Table
#define PTO_OPERANDS_TRAIT_TableDst (PTO_TRAIT_Table | PTO_TRAIT_NoDst)
#define PTO_OPERANDS_TRAIT_Words2 0u
#define PTO_OPERANDS_TRAIT_Words4 0u
#define PTO_OPERANDS_TRAIT_Aux 0u
#define PTO_OPERANDS_TRAIT_Config 0u
#define PTO_OPERANDS_TRAIT_ONE_(position, role, name) | PTO_OPERANDS_TRAIT_##role
#define PTO_OPERANDS_TRAITS(list) (0u PTO_OPERANDS_EACH(PTO_OPERANDS_TRAIT_ONE_, list))

/* The row's first operand (Dst or SrcOnly) as the C function's first
 * parameter (PTO_OPERANDS_HEAD_PARAM), or as M##Role(name) for a caller's
 * own spelling of it (PTO_OPERANDS_HEAD). */
#define PTO_OPERANDS_FIRST_(item, ...) item
#define PTO_OPERANDS_HEAD(M, list) \
  PTO_OPERANDS_CAT_(M, PTO_OPERANDS_CALL_(PTO_OPERANDS_FIRST_, (PTO_OPERANDS_UNPAREN_ list, ~)))
#define PTO_OPERANDS_HEAD_PARAM_Dst(name) pto_tile* name
#define PTO_OPERANDS_HEAD_PARAM_SrcOnly(name) const pto_tile* name
#define PTO_OPERANDS_HEAD_PARAM_TableDst(name) \
  void* name, size_t name##_elements, pto_dtype name##_dtype
#define PTO_OPERANDS_HEAD_PARAM(list) PTO_OPERANDS_HEAD(PTO_OPERANDS_HEAD_PARAM_, list)

/* The C function's parameters after the first (each with its leading comma)
 * and the statements storing every operand in an Operands `o` (C++: the
 * table). */
#define PTO_OPERANDS_PARAM_Dst(name, position)
#define PTO_OPERANDS_PARAM_SrcOnly(name, position)
#define PTO_OPERANDS_PARAM_TableDst(name, position)
#define PTO_OPERANDS_PARAM_Table(name, position) \
  , const void* name, size_t name##_elements, pto_dtype name##_dtype
#define PTO_OPERANDS_PARAM_Src(name, position) , const pto_tile* name
#define PTO_OPERANDS_PARAM_Tmp(name, position) , pto_tile* name
#define PTO_OPERANDS_PARAM_OptionalTmp(name, position) , pto_tile* name
#define PTO_OPERANDS_PARAM_Dst1(name, position) , pto_tile* name
#define PTO_OPERANDS_PARAM_Words2(name, position) , uint32_t name##0, uint32_t name##1
#define PTO_OPERANDS_PARAM_Words4(name, position) \
  , uint32_t name##0, uint32_t name##1, uint32_t name##2, uint32_t name##3
#define PTO_OPERANDS_PARAM_Aux(name, position) , pto_tile* name
#define PTO_OPERANDS_PARAM_Config(pair, position) , PTO_OPERANDS_CONFIG_PARAM_ pair
#define PTO_OPERANDS_PARAM_ONE_(position, role, name) PTO_OPERANDS_PARAM_##role(name, position)
#define PTO_OPERANDS_PARAMS(list) PTO_OPERANDS_EACH(PTO_OPERANDS_PARAM_ONE_, list)
#define PTO_OPERANDS_STORE_Dst(name, position) o.dst = name;
#define PTO_OPERANDS_STORE_SrcOnly(name, position) o.src0 = name;
/* The sources in order (a row with a Table among its tiles has a source
 * past its position's slot): source_slot_ counts them. */
#define PTO_OPERANDS_STORE_Src(name, position)            \
  *pto::ops::SourceSlot(&o, &ext_, source_slot_) = name; \
  uses_ext_ |= source_slot_++ >= 2;
#define PTO_OPERANDS_STORE_Tmp(name, position) o.tmp = name;
#define PTO_OPERANDS_STORE_OptionalTmp(name, position) o.tmp = name;
#define PTO_OPERANDS_STORE_Dst1(name, position) o.tmp = name;
#define PTO_OPERANDS_STORE_Table(name, position) \
  ext_.table = {const_cast<void*>(name), name##_elements, pto::RawEnumValue(name##_dtype)}; \
  uses_ext_ = true;
#define PTO_OPERANDS_STORE_TableDst(name, position) \
  ext_.table = {name, name##_elements, pto::RawEnumValue(name##_dtype)}; \
  uses_ext_ = true;
/* The words in order (OperandsExt::words; word_slot_ counts them). */
#define PTO_OPERANDS_STORE_Words2(name, position) \
  ext_.words[word_slot_++] = name##0;             \
  ext_.words[word_slot_++] = name##1;             \
  uses_ext_ = true;
#define PTO_OPERANDS_STORE_Words4(name, position) \
  PTO_OPERANDS_STORE_Words2(name, position) ext_.words[word_slot_++] = name##2; \
  ext_.words[word_slot_++] = name##3;
/* The further destinations in order (OperandsExt::aux; aux_slot_ counts them). */
#define PTO_OPERANDS_STORE_Aux(name, position) \
  ext_.aux[aux_slot_++] = name;                \
  uses_ext_ = true;
#define PTO_OPERANDS_STORE_Config(pair, position) \
  ext_.config = PTO_OPERANDS_CONFIG_NAME_ pair;   \
  uses_ext_ = true;
#define PTO_OPERANDS_STORE_ONE_(position, role, name) PTO_OPERANDS_STORE_##role(name, position)
/* Operands past the first two sources and the further roles go into ext_
 * (an ops::OperandsExt the C function declares), uses_ext_ set where the
 * row has one: constant once inlined, so that a row without any clears no
 * OperandsExt (the C function points o.ext at ext_ only where it is set). */
#define PTO_OPERANDS_STORE(list)                                       \
  int source_slot_ = 0, word_slot_ = 0, aux_slot_ = 0;                 \
  PTO_OPERANDS_EACH(PTO_OPERANDS_STORE_ONE_, list)(void) source_slot_; \
  (void)word_slot_;                                                    \
  (void)aux_slot_;

#endif /* PTO_OPERATION_OPERANDS_H_ */
