// The design system's parts, so every screen is built from the same ones (tokens.css and ui.css
// hold their looks). Screens import each part from its own file rather than from here: the build
// puts whatever the entry reaches statically into the first load, and a path through this index
// would pull the admin-only parts (Dialog, Table, Select) into it.
export { Badge } from './Badge.js';
export { Button, ButtonLink } from './Button.js';

export { Checkbox } from './Checkbox.js';

export { Input } from './Input.js';
export { Select } from './Select.js';
