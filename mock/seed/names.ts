/** Vocabulary of the generated plant: sites, areas, equipment, parts, people. */
export const SITES = ['North Plant', 'South Plant', 'Distribution Center', 'Head Office', 'Water Works', 'East Yard', 'Riverside Mill', 'Harbor Depot'];
export const AREAS = ['Boiler Room', 'Line 1', 'Line 2', 'Line 3', 'Packaging', 'Warehouse Bay A', 'Warehouse Bay B', 'Maintenance Shop', 'Roof', 'Basement', 'Loading Dock', 'Control Room', 'Tool Crib', 'Compressor House'];
export const EQUIPMENT = ['Air Compressor', 'Conveyor', 'Boiler', 'Chiller', 'Forklift', 'Hydraulic Press', 'CNC Lathe', 'Pump', 'Generator', 'HVAC Unit', 'Cooling Tower', 'Packaging Robot', 'Mixer', 'Oven', 'Extruder', 'Fire Pump', 'Delivery Van', 'Scissor Lift'];
export const COMPONENTS = ['Motor', 'Gearbox', 'Drive Belt', 'Control Panel', 'Heat Exchanger', 'Bearing Housing', 'Valve Block', 'Fan Assembly'];
export const PARTS = ['Bearing 6204', 'V-Belt A42', 'Hydraulic Filter', 'Air Filter', 'Oil Seal', 'Fuse 10A', 'Contactor', 'Proximity Sensor', 'Gasket Kit', 'Grease Cartridge', 'Drive Chain', 'Solenoid Valve', 'Thermocouple', 'Pressure Gauge', 'O-Ring Set', 'LED Lamp', 'Coupling Insert', 'Spark Plug', 'Brake Pad', 'Hose Clamp'];
export const MANUFACTURERS = ['SKF', 'Gates', 'Parker', 'Siemens', 'Bosch', 'Schneider', 'Timken', 'Festo', 'ABB', 'Honeywell'];
export const PEOPLE = ['Ana Ruiz', 'Ben Okafor', 'Chen Wei', 'Dana Kowalski', 'Eli Haddad', 'Farah Nasser', 'Gus Lindqvist', 'Hana Sato', 'Ivan Petrov', 'Jo Mensah', 'Kai Müller', 'Lea Dubois', 'Mo Farouk', 'Nia Brown', 'Omar Aziz', 'Pia Rossi'];
export const TEAMS = ['Mechanical', 'Electrical', 'Facilities', 'Fleet', 'Utilities', 'Night Shift'];
export const METERS = ['Run Hours', 'Odometer', 'Discharge Pressure', 'Oil Temperature', 'Flow Volume', 'Energy Use', 'Cycle Count', 'Vibration'];
export const WORK = ['Inspect', 'Replace', 'Lubricate', 'Repair', 'Calibrate', 'Clean', 'Test', 'Tighten', 'Adjust', 'Overhaul'];
export const PROBLEMS = ['Leak near', 'Noise from', 'Overheating', 'Broken guard on', 'Low pressure at', 'Light out in', 'Water on floor at', 'Door sticking at', 'Smell of burning near', 'Vibration on'];
