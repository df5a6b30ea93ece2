// A WhatsApp template exists once per language under one name (service_expiring in en_US and
// es_MX), as the provider lists them; 001 made the name alone unique, which refused the second.
export default `
ALTER TABLE whatsapp_templates DROP CONSTRAINT whatsapp_templates_name_key;

ALTER TABLE whatsapp_templates ADD CONSTRAINT whatsapp_templates_name_language_key UNIQUE (name, language);
`;
