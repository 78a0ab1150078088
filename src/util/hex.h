/* One hexadecimal digit's value, for the text readers (TOML, JSON escapes, command-line hex). */
#ifndef CUZK_UTIL_HEX_H
#define CUZK_UTIL_HEX_H

/* 0..15, or -1 when c is not a hexadecimal digit (either case). */
static inline int cuzk_hex_digit(char c)
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
