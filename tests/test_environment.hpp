#pragma once
// The process's ht::Environment, made by tstMain.cpp, for tests that drive
// code needing one (the drivers' configuration reads threads and MPI level).
#include "runtime/HT_Environment.hpp"

ht::Environment& test_environment();
