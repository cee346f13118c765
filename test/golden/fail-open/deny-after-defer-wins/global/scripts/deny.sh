#!/usr/bin/env bash
echo no >&2
exit 2
