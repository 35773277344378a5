"""What people see: the ``pram`` command line, rich reports, progress bars, plots and exports."""
