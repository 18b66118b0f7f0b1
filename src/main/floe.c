/*
 * floe.c — the floe binary (placeholder until the shell lands).
 */
#include <stdio.h>

int
main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "floe: shell not built yet\n");
	return 1;
}
