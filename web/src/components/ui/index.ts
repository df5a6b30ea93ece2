// The design system's parts, so every screen is built from the same ones (tokens.css and ui.css
// hold their looks). Screens import each part from its own file rather than from here: the build
// puts whatever the entry reaches statically into the first load, and a path through this index
// would pull the admin-only parts (Dialog, Table, Select) into it.
export { Badge, type BadgeProps, type BadgeTone } from './Badge.js';
export { Button, ButtonLink, type ButtonProps, type ButtonVariant } from './Button.js';
export { Card, type CardProps } from './Card.js';
export { Checkbox, type CheckboxProps } from './Checkbox.js';
export { Dialog } from './Dialog.js';
export { Input, type InputProps } from './Input.js';
export { Select } from './Select.js';
export { Table } from './Table.js';
export { TOAST_DURATION_MS, type Toast, ToastProvider, useToast } from './Toast.js';
