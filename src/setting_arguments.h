/* The roles of settings.def's Arguments column, for C++: the C function's
 * parameters (PTO_SETTING_PARAMS), the names it passes on
 * (PTO_SETTING_ARGS) and each argument's checks in the row's order
 * (PTO_SETTING_CHECKS, the statements of src/ops/settings.cc's functions).
 * settings.def's header says what each role is. */
#ifndef PTO_SETTING_ARGUMENTS_H_
#define PTO_SETTING_ARGUMENTS_H_

#include "operation_operands.h"

/* PTO_SETTING_EACH(P, list): P##item for each item of the list, an item
 * being Role(name, ...): P##Role(name, ...). */
#define PTO_SETTING_ONE_(P, item) PTO_OPERANDS_CAT_(P, item)
#define PTO_SETTING_EACH_1(P, a) PTO_SETTING_ONE_(P, a)
#define PTO_SETTING_EACH_2(P, a, b) PTO_SETTING_EACH_1(P, a) PTO_SETTING_ONE_(P, b)
#define PTO_SETTING_EACH_3(P, a, b, c) PTO_SETTING_EACH_2(P, a, b) PTO_SETTING_ONE_(P, c)
#define PTO_SETTING_EACH_4(P, a, b, c, d) PTO_SETTING_EACH_3(P, a, b, c) PTO_SETTING_ONE_(P, d)
#define PTO_SETTING_EACH_5(P, a, b, c, d, e) \
  PTO_SETTING_EACH_4(P, a, b, c, d) PTO_SETTING_ONE_(P, e)
#define PTO_SETTING_EACH_6(P, a, b, c, d, e, f) \
  PTO_SETTING_EACH_5(P, a, b, c, d, e) PTO_SETTING_ONE_(P, f)
#define PTO_SETTING_EACH_7(P, a, b, c, d, e, f, g) \
  PTO_SETTING_EACH_6(P, a, b, c, d, e, f) PTO_SETTING_ONE_(P, g)
#define PTO_SETTING_EACH_8(P, a, b, c, d, e, f, g, h) \
  PTO_SETTING_EACH_7(P, a, b, c, d, e, f, g) PTO_SETTING_ONE_(P, h)
#define PTO_SETTING_EACH(P, list)                                                          \
  PTO_OPERANDS_CALL_(PTO_OPERANDS_CAT_(PTO_SETTING_EACH_, PTO_OPERANDS_COUNT list), \
                     (P, PTO_OPERANDS_UNPAREN_ list))

/* Every item gives ", what" (a Field nothing); the first comma dropped. */
#define PTO_SETTING_DROP_FIRST_(first, ...) __VA_ARGS__
#define PTO_SETTING_LIST_(...) PTO_SETTING_DROP_FIRST_(__VA_ARGS__)

/* The C function's parameters. */
#define PTO_SETTING_PARAM_Config(name, CType) , const CType* name
#define PTO_SETTING_PARAM_Field(name, CType, Min, Max, Default)
#define PTO_SETTING_PARAM_Float(name) , float name
#define PTO_SETTING_PARAM_Dtype(name, dtypes) , pto_dtype name
#define PTO_SETTING_PARAM_Tile(name) , const pto_tile* name
#define PTO_SETTING_PARAMS(list) PTO_SETTING_LIST_(~ PTO_SETTING_EACH(PTO_SETTING_PARAM_, list))

/* The same as arguments: the names. */
#define PTO_SETTING_ARG_Config(name, CType) , name
#define PTO_SETTING_ARG_Field(name, CType, Min, Max, Default)
#define PTO_SETTING_ARG_Float(name) , name
#define PTO_SETTING_ARG_Dtype(name, dtypes) , name
#define PTO_SETTING_ARG_Tile(name) , name
#define PTO_SETTING_ARGS(list) PTO_SETTING_LIST_(~ PTO_SETTING_EACH(PTO_SETTING_ARG_, list))

/* The checks, on a pto::Validator `v`, returning its status at the first
 * refusal that later checks could not survive (a NULL pointer). A Config
 * names itself to the Fields after it (setting_config, _name). */
#define PTO_SETTING_CHECK_Config(name, CType)         \
  v.NotNull(#name, name);                             \
  if (!v.ok()) return v.status();                     \
  const CType* const setting_config = name;           \
  const char* const setting_config_name = #name;
#define PTO_SETTING_CHECK_Field(name, CType, Min, Max, Default)                                 \
  static_assert(std::is_same<decltype(setting_config->name), CType>::value,                   \
                "settings.def: " #name "'s CType is not the struct's");                        \
  v.Require(pto::ops::FieldInRange(setting_config->name, Min, Max), PTO_ERR_INVALID_ARGUMENT, \
            "%s's %s %llu is outside [%llu, %llu]", setting_config_name, #name,                \
            static_cast<unsigned long long>(setting_config->name),                             \
            static_cast<unsigned long long>(Min), static_cast<unsigned long long>(Max));
#define PTO_SETTING_CHECK_Float(name)
#define PTO_SETTING_CHECK_Dtype(name, dtypes)                                                 \
  {                                                                                          \
    using namespace pto::def_dtypes;                                                         \
    static constexpr pto::DtypeSet kAccepted = pto::DtypesOf({PTO_OPERANDS_UNPAREN_ dtypes}); \
    pto::ops::RequireSettingDtype(v, #name, pto::RawEnumValue(name), kAccepted);              \
  }
#define PTO_SETTING_CHECK_Tile(name) \
  v.NotNull(#name, name);            \
  if (!v.ok()) return v.status();
#define PTO_SETTING_CHECKS(list) PTO_SETTING_EACH(PTO_SETTING_CHECK_, list)

#endif /* PTO_SETTING_ARGUMENTS_H_ */
