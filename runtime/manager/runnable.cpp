#include "ctrl/manager/runnable.hpp"
