/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Symbol visibility: only functions marked SCG_API leave libsyscage.so. */
#ifndef SYSCAGE_EXPORT_H
#define SYSCAGE_EXPORT_H

#if defined(SCG_BUILDING_LIBRARY)
#define SCG_API __attribute__((visibility("default")))
#else
#define SCG_API
#endif

#endif /* SYSCAGE_EXPORT_H */
