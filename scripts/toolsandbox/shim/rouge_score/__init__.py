# A stand-in for the rouge_score package (not installable here): the same tokenizer rules
# (rouge_score/tokenize.py) and ROUGE-L F-measure, over NLTK's own PorterStemmer, which is
# what rouge_score stems with. Used only by the export scripts.
