/*
 * common/hex.h -- one hexadecimal digit's value.
 *
 *   hex_value(c)   0..15 for 0-9, a-f, A-F; -1 for anything else
 *                  (a negative char is -1 too)
 */
#ifndef FLOE_COMMON_HEX_H
#define FLOE_COMMON_HEX_H

static inline int
hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
