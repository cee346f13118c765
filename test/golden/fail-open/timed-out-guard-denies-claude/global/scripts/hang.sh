#!/usr/bin/env bash
exec sleep 60
