/**
 * Content pages of the sandbox's content space (catch-all route `/{slug}`): the six legal pages
 * of spec §2 and the service pages (help, contact, FAQ, delivery, returns, affiliation), in
 * French, with the markup of rich-text.ts. Entry ids are `page-{slug with / as -}`. The company
 * details are the sandbox store's (seed/content.ts); registration numbers are fictitious.
 */

export interface PageSeed {
  slug: string;
  title: string;
  description: string;
  body: string[];
  /** Last edit (YYYY-MM-DD). */
  updatedAt: string;
}

export function pageId(slug: string): string {
  return `page-${slug.replaceAll('/', '-')}`;
}

const COMPANY =
  'Literie Lumière SAS, au capital de 150 000 €, immatriculée au RCS de Lyon sous le numéro 000 123 456 (numéro fictif du bac à sable), dont le siège est situé 18 quai des Tisserands, 69002 Lyon';

export const LEGAL_SLUGS = [
  'protection-des-donnees-personnelles',
  'mentions-legales',
  'cgv',
  'cookies',
  'conditions-des-offres',
  'cgu-photographies',
] as const;

export const CONTENT_PAGES: readonly PageSeed[] = [
  {
    slug: 'mentions-legales',
    title: 'Mentions légales',
    description:
      'Éditeur, directrice de la publication, hébergeur et propriété intellectuelle du site Literie Lumière.',
    updatedAt: '2025-01-06',
    body: [
      '## Éditeur du site',
      `Le site www.literie-lumiere.fr est édité par ${COMPANY}.`,
      'Téléphone : [01 99 00 12 34](tel:+33199001234). Courriel : [contact@literie-lumiere.fr](mailto:contact@literie-lumiere.fr).',
      'Numéro de TVA intracommunautaire : FR00 000123456.',
      '## Directrice de la publication',
      'Claire Duvernay, présidente.',
      '## Hébergement',
      'Le site est hébergé par Hébergement Rhône SAS, 4 rue de la Charité, 69002 Lyon. Les contenus éditoriaux sont servis par un service de gestion de contenu et le catalogue par une plateforme de commerce en ligne, agissant en qualité de sous-traitants.',
      '## Propriété intellectuelle',
      'L’ensemble des éléments du site (textes, photographies, illustrations, logos, podcasts et vidéos) est protégé par le droit d’auteur et le droit des marques. Toute reproduction, même partielle, sans autorisation écrite préalable est interdite, conformément aux articles L.122-4 et L.335-2 du Code de la propriété intellectuelle.',
      '## Signaler un contenu',
      'Pour signaler un contenu illicite, écrivez-nous à [contact@literie-lumiere.fr](mailto:contact@literie-lumiere.fr) en précisant l’adresse de la page concernée.',
    ],
  },
  {
    slug: 'cgv',
    title: 'Conditions générales de vente',
    description:
      'Commande, prix, paiement, livraison, droit de rétractation et garanties : les conditions de vente de Literie Lumière.',
    updatedAt: '2025-02-03',
    body: [
      'Les présentes conditions générales de vente s’appliquent à toute commande passée sur le site www.literie-lumiere.fr par un consommateur.',
      '## Article 1 – Vendeur',
      `${COMPANY}.`,
      '## Article 2 – Produits',
      'Les produits proposés sont décrits avec la plus grande exactitude possible. Les photographies n’ont pas de valeur contractuelle ; les coloris peuvent légèrement varier selon l’écran utilisé.',
      '## Article 3 – Prix',
      'Les prix sont indiqués en euros, toutes taxes comprises, hors frais de livraison. L’éco-participation, reversée à l’éco-organisme de la filière ameublement, est incluse dans le prix et indiquée séparément sur la fiche produit.',
      '## Article 4 – Commande',
      'La commande est définitive après validation du paiement. Un courriel de confirmation récapitule les produits, le prix total et l’adresse de livraison.',
      '## Article 5 – Paiement',
      'Le paiement s’effectue par carte bancaire sur une page sécurisée. Le débit intervient à la validation de la commande.',
      '## Article 6 – Livraison',
      'Les délais et frais de livraison sont précisés sur la fiche produit et sur la page [livraison](entry:page-livraison). En cas de retard supérieur à sept jours, le client peut annuler sa commande dans les conditions de l’article L.216-6 du Code de la consommation.',
      '## Article 7 – Droit de rétractation',
      'Conformément à l’article L.221-18 du Code de la consommation, le client dispose de **quatorze jours** à compter de la réception du produit pour se rétracter, sans avoir à se justifier. Le produit doit être retourné dans son emballage d’origine ; les frais de retour sont à la charge du client. Le remboursement intervient dans les quatorze jours suivant la réception de la demande.',
      '## Article 8 – Garanties légales',
      'Tous les produits bénéficient de la garantie légale de conformité (articles L.217-3 et suivants du Code de la consommation) pendant deux ans à compter de la délivrance, et de la garantie des vices cachés (articles 1641 et suivants du Code civil).',
      '## Article 9 – Essai de 100 nuits',
      'Les matelas bénéficient d’un essai commercial de cent nuits, en plus des garanties légales, selon les [conditions des offres](entry:page-conditions-des-offres).',
      '## Article 10 – Médiation',
      'En cas de litige, le client peut recourir gratuitement au médiateur de la consommation dont relève Literie Lumière, après une réclamation écrite restée sans réponse satisfaisante pendant deux mois.',
      '## Article 11 – Droit applicable',
      'Les présentes conditions sont soumises au droit français.',
    ],
  },
  {
    slug: 'protection-des-donnees-personnelles',
    title: 'Protection des données personnelles',
    description:
      'Quelles données Literie Lumière collecte, pourquoi, combien de temps, et comment exercer vos droits.',
    updatedAt: '2025-01-20',
    body: [
      'Literie Lumière attache une grande importance à la protection de vos données. Cette politique explique quelles données nous traitons et comment exercer vos droits, conformément au règlement général sur la protection des données (RGPD) et à la loi Informatique et Libertés.',
      '## Responsable du traitement',
      `${COMPANY}.`,
      '## Données traitées et finalités',
      '| Finalité | Données | Base légale | Durée de conservation |',
      '|---|---|---|---|',
      '| Gestion des commandes et livraisons | Identité, adresses, téléphone, commandes | Exécution du contrat | 10 ans (obligations comptables) |',
      '| Compte client | Identité, courriel, mot de passe chiffré | Exécution du contrat | 3 ans après la dernière connexion |',
      '| Lettre d’information | Courriel | Consentement | Jusqu’au désabonnement |',
      '| Mesure d’audience | Données de navigation | Consentement | 13 mois |',
      '## Destinataires',
      'Vos données sont destinées aux services de Literie Lumière et à ses sous-traitants : plateforme de commerce en ligne, prestataire d’envoi de courriels, transporteurs et prestataire de paiement. Certains d’entre eux peuvent traiter des données hors de l’Union européenne, encadrées par des clauses contractuelles types de la Commission européenne.',
      '## Vos droits',
      '- Droit d’accès et de rectification',
      '- Droit à l’effacement et à la limitation du traitement',
      '- Droit d’opposition, notamment à la prospection',
      '- Droit à la portabilité de vos données',
      '- Droit de définir des directives relatives au sort de vos données après votre décès',
      'Pour les exercer, écrivez à [dpo@literie-lumiere.fr](mailto:dpo@literie-lumiere.fr) en joignant tout moyen de vous identifier. Vous pouvez également introduire une réclamation auprès de la [CNIL](https://www.cnil.fr/).',
      'Pour les traceurs, consultez notre [politique de cookies](entry:page-cookies).',
    ],
  },
  {
    slug: 'cookies',
    title: 'Politique de cookies',
    description:
      'Les cookies et traceurs déposés sur le site Literie Lumière et comment les gérer.',
    updatedAt: '2025-01-20',
    body: [
      'Un cookie est un petit fichier déposé sur votre terminal lors de la visite d’un site. Certains sont indispensables, d’autres ne sont déposés qu’avec votre accord.',
      '## Cookies utilisés',
      '| Cookie | Finalité | Durée | Consentement |',
      '|---|---|---|---|',
      '| Session | Maintenir votre connexion à votre compte | Durée de la session | Non requis |',
      '| Panier | Conserver le contenu de votre panier | 30 jours | Non requis |',
      '| Préférences | Mémoriser vos choix en matière de cookies | 6 mois | Non requis |',
      '| Mesure d’audience | Statistiques de fréquentation anonymisées | 13 mois | Requis |',
      '## Gérer vos choix',
      'Vous pouvez à tout moment modifier vos choix depuis le lien « Gérer les cookies » en bas de page, ou configurer votre navigateur pour refuser les cookies. Le refus des cookies indispensables peut empêcher le fonctionnement du panier.',
      '---',
      'Pour en savoir plus sur vos droits, consultez notre page [protection des données personnelles](entry:page-protection-des-donnees-personnelles).',
    ],
  },
  {
    slug: 'conditions-des-offres',
    title: 'Conditions des offres',
    description:
      'Essai de 100 nuits, codes de réduction et offres promotionnelles : les conditions détaillées.',
    updatedAt: '2025-03-10',
    body: [
      '## Essai de 100 nuits',
      'Vous pouvez essayer votre matelas pendant cent nuits. Passé un délai minimum de trente nuits, nécessaire au corps pour s’habituer à un nouveau couchage, vous pouvez nous le retourner s’il ne vous convient pas.',
      '1. Contactez notre service client avant la centième nuit.',
      '2. Nous organisons l’enlèvement à domicile, gratuitement.',
      '3. Vous êtes remboursé sous quatorze jours, ou vous choisissez un autre modèle.',
      'L’offre est limitée à un essai par foyer et ne s’applique pas aux matelas enfant, aux produits soldés ni aux matelas protégés par une housse non d’origine tachée ou détériorée.',
      '## Codes de réduction',
      'Les codes de réduction sont valables une fois par client, pendant la durée indiquée, et ne sont pas cumulables entre eux. Ils s’appliquent au prix affiché hors frais de livraison et ne s’appliquent pas à l’éco-participation.',
      'Saisissez votre code, par exemple `BIENVENUE10`, dans le panier avant de valider votre commande.',
      '## Ventes privées',
      'Les ventes privées sont réservées aux clients inscrits à notre lettre d’information, dans la limite des stocks disponibles.',
    ],
  },
  {
    slug: 'cgu-photographies',
    title: 'Conditions d’utilisation des photographies',
    description:
      'Conditions dans lesquelles vous partagez vos photographies avec Literie Lumière et dans lesquelles nous pouvons les publier.',
    updatedAt: '2024-11-18',
    body: [
      'Vous pouvez partager avec nous des photographies de votre chambre et de vos produits Literie Lumière, par exemple en nous mentionnant sur les réseaux sociaux. Les présentes conditions encadrent leur utilisation.',
      '## Autorisation de publication',
      'En nous confirmant votre accord, vous autorisez Literie Lumière à reproduire et publier la photographie sur son site, ses réseaux sociaux et ses lettres d’information, pour une durée de deux ans et pour le monde entier, à titre gratuit. Votre nom d’utilisateur est mentionné avec la photographie.',
      '## Vos garanties',
      'Vous déclarez être l’auteur de la photographie et avoir recueilli l’accord des personnes reconnaissables qui y figurent. Aucune photographie représentant un mineur identifiable ne sera publiée.',
      '## Retrait',
      'Vous pouvez demander le retrait d’une photographie à tout moment en écrivant à [contact@literie-lumiere.fr](mailto:contact@literie-lumiere.fr) ; elle est alors retirée sous sept jours des supports que nous contrôlons.',
    ],
  },
  {
    slug: 'aide',
    title: 'Aide',
    description: 'Commande, livraison, retours, garanties : trouvez rapidement une réponse.',
    updatedAt: '2025-02-17',
    body: [
      '# Comment pouvons-nous vous aider ?',
      'Retrouvez ici les réponses aux questions les plus fréquentes. Notre équipe est aussi joignable du lundi au samedi, de 9 heures à 19 heures.',
      '## Votre commande',
      '- [Délais et frais de livraison](entry:page-livraison)',
      '- [Retourner un produit](entry:page-aide-retours)',
      '- [Questions fréquentes](entry:page-faq)',
      '## Nos engagements',
      '{{entry:page-conditions-des-offres}}',
      'Nos offres de saison seront détaillées sur la page [offres d’été](entry:page-offres-d-ete) dès leur lancement.',
      '## Nous écrire',
      'Le plus simple : notre [formulaire de contact](entry:page-contact), ou un courriel à [service-client@literie-lumiere.fr](mailto:service-client@literie-lumiere.fr).',
    ],
  },
  {
    slug: 'aide/retours',
    title: 'Retourner un produit',
    description:
      'Rétractation sous 14 jours, essai de 100 nuits, produit défectueux : comment nous retourner un article.',
    updatedAt: '2025-02-17',
    body: [
      '## Vous avez changé d’avis',
      'Vous disposez de quatorze jours après la réception pour nous retourner un produit non utilisé, dans son emballage d’origine. Signalez-le au service client, qui vous envoie une étiquette de retour.',
      '## Votre matelas ne vous convient pas',
      'Il bénéficie de l’essai de 100 nuits : nous venons le chercher chez vous.',
      '## Le produit est défectueux',
      'Envoyez-nous une photographie du défaut. Nous remplaçons le produit ou vous remboursons, frais de retour inclus.',
    ],
  },
  {
    slug: 'contact',
    title: 'Nous contacter',
    description:
      'Téléphone, courriel et adresses de nos magasins : toutes les façons de nous joindre.',
    updatedAt: '2024-12-09',
    body: [
      '## Service client',
      'Du lundi au samedi, de 9 heures à 19 heures.',
      '- Téléphone : [01 99 00 12 34](tel:+33199001234) (appel non surtaxé)',
      '- Courriel : [service-client@literie-lumiere.fr](mailto:service-client@literie-lumiere.fr)',
      '## Nos magasins',
      '| Magasin | Adresse | Horaires |',
      '|---|---|---|',
      '| Lyon Presqu’île | 18 quai des Tisserands, 69002 Lyon | Mardi au samedi, 10 h – 19 h |',
      '| Lyon Croix-Rousse | 7 rue des Canuts, 69004 Lyon | Mardi au samedi, 10 h – 19 h |',
      '| Villeurbanne | 112 cours Émile-Zola, 69100 Villeurbanne | Lundi au samedi, 10 h – 19 h |',
      '| Annecy | 3 quai de l’Évêché, 74000 Annecy | Mardi au samedi, 10 h – 18 h 30 |',
      'Venez essayer nos matelas : un conseiller vous accompagne, sans rendez-vous.',
    ],
  },
  {
    slug: 'faq',
    title: 'Questions fréquentes',
    description: 'Les réponses aux questions que nos clients nous posent le plus souvent.',
    updatedAt: '2025-01-27',
    body: [
      '### Combien de temps faut-il à un matelas livré roulé pour reprendre sa forme ?',
      'Il retrouve l’essentiel de son volume en quelques heures, et sa forme définitive en 48 à 72 heures. Vous pouvez dormir dessus dès le premier soir.',
      '### Faut-il changer de sommier en même temps que de matelas ?',
      'Un sommier usé réduit le soutien et la durée de vie du matelas. Nous conseillons de les changer ensemble s’il a plus de dix ans.',
      '### Reprenez-vous mon ancien matelas ?',
      'Oui : lors d’une livraison en deux personnes, nous reprenons gratuitement votre ancienne literie, financée par l’éco-participation.',
      '### Puis-je modifier ma commande ?',
      'Tant qu’elle n’est pas expédiée, contactez-nous au plus vite au [01 99 00 12 34](tel:+33199001234).',
    ],
  },
  {
    slug: 'livraison',
    title: 'Livraison',
    description: 'Modes, délais et frais de livraison en France métropolitaine.',
    updatedAt: '2025-02-03',
    body: [
      'Nous livrons en France métropolitaine, hors Corse. Le délai de chaque produit est indiqué sur sa fiche.',
      '| Mode | Produits | Délai | Frais |',
      '|---|---|---|---|',
      '| Colissimo | Linge de lit, oreillers, couettes | 2 à 4 jours ouvrés | 5,90 €, offerts dès 80 € |',
      '| Livraison roulée | Matelas roulés sous vide | 3 à 5 jours ouvrés | Offerte |',
      '| Livraison à deux personnes | Sommiers, lits, matelas à plat | 1 à 3 semaines, sur rendez-vous | 49 €, offerte dès 500 € |',
      '| Retrait en magasin | Tous les produits | Sous 48 heures | Gratuit |',
      'La livraison à deux personnes comprend l’installation dans la pièce de votre choix et la reprise de votre ancienne literie.',
    ],
  },
  {
    slug: 'devenir-affilie',
    title: 'Devenir affilié',
    description:
      'Blogueurs, créateurs, comparateurs : rejoignez le programme d’affiliation Literie Lumière.',
    updatedAt: '2024-10-21',
    body: [
      '## Le programme',
      'Vous parlez de sommeil, de décoration ou de bien-être ? Recommandez nos produits et touchez une commission sur chaque vente réalisée grâce à vos liens.',
      '- **6 %** de commission sur les matelas et sommiers',
      '- **8 %** sur le linge de lit et les accessoires',
      '- Un cookie de suivi de 30 jours',
      '- Des visuels et des codes de réduction dédiés',
      '## Comment participer',
      'Écrivez-nous à [affiliation@literie-lumiere.fr](mailto:affiliation@literie-lumiere.fr) en présentant votre site ou votre audience. Nous vous répondons sous une semaine.',
    ],
  },
];

/** A page written but never published: the help page and the Footer link to it (notResolvable). */
export const UNPUBLISHED_PAGE: PageSeed = {
  slug: 'offres-d-ete',
  title: 'Offres d’été',
  description: 'Brouillon : les offres de l’été prochain.',
  updatedAt: '2025-04-01',
  body: ['Brouillon, à publier au lancement des offres.'],
};
