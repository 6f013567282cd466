/* The flags of operations.def's Traits column, for C (the tests) and C++
 * (the table): PTO_TRAIT_BITS(WholeDst, WholeSrc) is their OR. The column's
 * header comment says what each flag means. */
#ifndef PTO_OPERATION_TRAITS_H_
#define PTO_OPERATION_TRAITS_H_

#define PTO_TRAIT_None 0u
#define PTO_TRAIT_CommonCall (1u << 0)
#define PTO_TRAIT_WholeDst (1u << 1)
#define PTO_TRAIT_WholeSrc (1u << 2)
#define PTO_TRAIT_MaskDst (1u << 3)
#define PTO_TRAIT_MaskSrc (1u << 4)
#define PTO_TRAIT_ScalarAfterTmp (1u << 5)
#define PTO_TRAIT_ValuesAtRun (1u << 6)
#define PTO_TRAIT_TextTmp (1u << 7)
#define PTO_TRAIT_Cube (1u << 8)
#define PTO_TRAIT_TextRules (1u << 9)
#define PTO_TRAIT_A5UnusedTmp (1u << 10)
#define PTO_TRAIT_IndexDst (1u << 11)
#define PTO_TRAIT_ReadsDst (1u << 12)
#define PTO_TRAIT_ScalarBetween (1u << 13)
/* Set by a Dst1 operand of the Operands column, never written in Traits. */
#define PTO_TRAIT_SecondDst (1u << 14)
#define PTO_TRAIT_Gemv (1u << 15)
#define PTO_TRAIT_Fixpipe (1u << 16)
#define PTO_TRAIT_WritesPart (1u << 17)
#define PTO_TRAIT_CubeMove (1u << 18)
#define PTO_TRAIT_PadsMat (1u << 19)
#define PTO_TRAIT_NoText (1u << 20)
/* Set by a SrcOnly operand: the row has no tile result, never written in
 * Traits. */
#define PTO_TRAIT_NoDst (1u << 21)
/* Set by a Table or TableDst operand: the row reads or writes a table in
 * the caller's memory (OperandsExt::table), never written in Traits. */
#define PTO_TRAIT_Table (1u << 22)
#define PTO_TRAIT_NullsFirst (1u << 23)
#define PTO_TRAIT_OwnScratch (1u << 24)
#define PTO_TRAIT_TmpOut (1u << 25)
#define PTO_TRAIT_SrcScratch (1u << 26)
#define PTO_TRAIT_ColumnParams (1u << 27)
#define PTO_TRAIT_ListScratch (1u << 28)

/* The OR of one to four flags named without their prefix. */
#define PTO_TRAIT_BITS(...) \
  PTO_TRAIT_PICK_(__VA_ARGS__, PTO_TRAIT_OR4_, PTO_TRAIT_OR3_, PTO_TRAIT_OR2_, PTO_TRAIT_OR1_)(__VA_ARGS__)
#define PTO_TRAIT_PICK_(a, b, c, d, name, ...) name
#define PTO_TRAIT_OR1_(a) (PTO_TRAIT_##a)
#define PTO_TRAIT_OR2_(a, b) (PTO_TRAIT_##a | PTO_TRAIT_##b)
#define PTO_TRAIT_OR3_(a, b, c) (PTO_TRAIT_##a | PTO_TRAIT_##b | PTO_TRAIT_##c)
#define PTO_TRAIT_OR4_(a, b, c, d) (PTO_TRAIT_##a | PTO_TRAIT_##b | PTO_TRAIT_##c | PTO_TRAIT_##d)

#endif /* PTO_OPERATION_TRAITS_H_ */
